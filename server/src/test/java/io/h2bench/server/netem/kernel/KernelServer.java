package io.h2bench.server.netem.kernel;

import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.NetworkEngine;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.netem.LinkProfile;
import java.io.IOException;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The h2bench server on ephemeral ports behind a kernel link. Where the engine cannot start the
 * tests skip with the reason, except on CI (CI=true, root), where that is a failure.
 */
final class KernelServer implements AutoCloseable {

    private final H2BenchServer server;

    private KernelServer(H2BenchServer server) {
        this.server = server;
    }

    static KernelServer start(LinkProfile profile, LinkOptions options) throws Exception {
        return start(ServerSettings.ephemeral().withNetwork(profile), options);
    }

    /** With {@code settings}' network, ports and h3 options. */
    static KernelServer start(ServerSettings settings, LinkOptions options) throws Exception {
        try {
            return new KernelServer(H2BenchServer.start(settings,
                    new NetworkEngine(NetworkEngine.Kind.KERNEL, options)));
        } catch (IOException e) {
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail("the kernel engine must start on CI: " + e.getMessage(), e);
            }
            Assumptions.abort("kernel engine unavailable here: " + e.getMessage());
            throw e;
        }
    }

    static KernelServer start(LinkProfile profile) throws Exception {
        return start(profile, LinkOptions.defaults());
    }

    H2BenchServer server() {
        return server;
    }

    KernelLink link() {
        return server.kernelLink();
    }

    String host() {
        return link().serverAddress();
    }

    int port(Listener listener) {
        return server.port(listener);
    }

    /** The server socket's line pair from {@code ss -tin} for the connection from {@code clientPort}. */
    String socketInfo(int clientPort) throws IOException {
        String output = link().runInNamespace("ss", "-tin", "dst", link().clientAddress() + ":" + clientPort);
        int start = output.indexOf("ESTAB");
        return start < 0 ? "" : output.substring(start);
    }

    /** The namespace's TCP RetransSegs (/proc/net/snmp): the server's retransmissions, nothing else's. */
    long retransmittedSegments() throws IOException {
        return snmp("Tcp", "RetransSegs");
    }

    /** A counter of the server namespace's /proc/net/snmp, such as {@code Udp OutDatagrams}. */
    long snmp(String protocol, String counter) throws IOException {
        String[] lines = link().runInNamespace("cat", "/proc/net/snmp").split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].startsWith(protocol + ":") && lines[i + 1].startsWith(protocol + ":")) {
                java.util.List<String> names = java.util.List.of(lines[i].trim().split("\\s+"));
                return Long.parseLong(lines[i + 1].trim().split("\\s+")[names.indexOf(counter)]);
            }
        }
        throw new IOException("no " + protocol + " counters in /proc/net/snmp");
    }

    @Override
    public void close() {
        server.close();
    }
}
