package io.h2bench.server;

import io.h2bench.server.netem.LinkProfile;
import io.h2bench.server.netem.kernel.KernelLink;
import io.h2bench.server.netem.kernel.LinkOptions;
import java.io.IOException;
import java.util.Locale;

/**
 * Which engine emulates the network: the kernel link (packets between two real TCP stacks) or the
 * byte proxy (a model of TCP in front of loopback). {@code auto} takes the kernel link wherever it
 * can start and says in one line why not otherwise.
 *
 * @param requested what the user asked for
 * @param options   the kernel link's queue and congestion control
 */
public record NetworkEngine(Kind requested, LinkOptions options) {

    public enum Kind {
        KERNEL, PROXY, AUTO;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The byte proxy, as before the kernel engine existed: the default of tests and the API. */
    public static NetworkEngine proxy() {
        return new NetworkEngine(Kind.PROXY, LinkOptions.defaults());
    }

    public static NetworkEngine auto(LinkOptions options) {
        return new NetworkEngine(Kind.AUTO, options);
    }

    /**
     * Starts the kernel link for {@code profile} when this engine takes it; {@link Choice#link()}
     * is null for the proxy (or no emulation at all), with the reason when auto fell back.
     */
    Choice choose(LinkProfile profile) throws IOException {
        if (profile.isIdeal() || requested == Kind.PROXY) {
            return new Choice(null, null);
        }
        try {
            return new Choice(KernelLink.start(profile, options), null);
        } catch (IOException | UnsatisfiedLinkError | NoClassDefFoundError e) {
            if (requested == Kind.KERNEL) {
                throw new IOException("the kernel engine cannot start: " + e.getMessage(), e);
            }
            return new Choice(null, "proxy engine, because the kernel engine cannot start: " + e.getMessage()
                    + (isPermission(e) ? " (it needs root, or a user namespace: see -- COMMAND)" : ""));
        }
    }

    private static boolean isPermission(Throwable e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("EPERM") || message.contains("EACCES");
    }

    /** The kernel link, or null; why auto did not take it, or null. */
    record Choice(KernelLink link, String fallbackReason) {
    }
}
