package io.h2bench.server.netem.kernel;

import java.util.Objects;

/**
 * The kernel link's own settings, beyond the {@link io.h2bench.server.netem.LinkProfile}.
 *
 * @param queuePackets      drop-tail queue in front of each direction's rate limit, in packets
 * @param congestionControl the server's TCP congestion control, e.g. cubic (what the seeds' Linux servers ran)
 * @param lossPattern       which packets the profile's loss takes
 */
public record LinkOptions(int queuePackets, String congestionControl, LossPattern lossPattern) {

    public static final int DEFAULT_QUEUE_PACKETS = 1000;
    public static final String DEFAULT_CONGESTION_CONTROL = "cubic";

    public LinkOptions {
        Objects.requireNonNull(congestionControl, "congestionControl");
        Objects.requireNonNull(lossPattern, "lossPattern");
        if (queuePackets < 1) {
            throw new IllegalArgumentException("--queue must be at least 1 packet: " + queuePackets);
        }
        if (!congestionControl.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("not a congestion control name: " + congestionControl);
        }
    }

    public static LinkOptions defaults() {
        return new LinkOptions(DEFAULT_QUEUE_PACKETS, DEFAULT_CONGESTION_CONTROL, LossPattern.RANDOM);
    }
}
