package io.h2bench.server.netem.kernel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Gives both TUN devices their addresses with iproute2's {@code ip} (the server side through
 * {@code nsenter}), brings them up with a long transmit queue (TUN's default 500 overflows above
 * ~1 Gbit/s, and those drops would look like link loss), and makes the server's TCP what the seeds'
 * servers ran: the chosen congestion control on the route back to the client (a route's
 * {@code congctl} applies to accepted sockets and, unlike the namespace's sysctl, needs no entry in
 * the host's tcp_allowed_congestion_control) and no metrics carried from one connection to the next.
 */
final class LinkSetup {

    private static final int MTU = 1500;
    private static final int TX_QUEUE_PACKETS = 10_000;

    private LinkSetup() {
    }

    static void configure(LinkAddresses link, NetworkNamespace namespace, String congestionControl)
            throws IOException {
        checkAvailable(congestionControl);
        String dev = link.device();
        run(List.of("sh", "-ec", String.join("\n",
                "ip addr add " + link.clientAddress() + " peer " + link.serverAddress() + " dev " + dev,
                "ip link set dev " + dev + " mtu " + MTU + " txqueuelen " + TX_QUEUE_PACKETS + " up")));
        run(List.of("nsenter", "--net=" + namespace.path(), "sh", "-ec", String.join("\n",
                "ip link set dev lo up",
                "ip addr add " + link.serverAddress() + " peer " + link.clientAddress() + " dev " + dev,
                "ip link set dev " + dev + " mtu " + MTU + " txqueuelen " + TX_QUEUE_PACKETS + " up",
                "ip route replace " + link.clientAddress() + " dev " + dev + " proto kernel scope link src "
                        + link.serverAddress() + " congctl " + congestionControl,
                "echo 1 > /proc/sys/net/ipv4/tcp_no_metrics_save")));
    }

    /** Runs a command in the namespace, e.g. {@code ss -ti}, and returns what it printed. */
    static String runIn(NetworkNamespace namespace, String... command) throws IOException {
        List<String> line = new ArrayList<>(List.of("nsenter", "--net=" + namespace.path()));
        line.addAll(List.of(command));
        return run(line);
    }

    private static void checkAvailable(String congestionControl) throws IOException {
        String available = java.nio.file.Files.readString(
                java.nio.file.Path.of("/proc/sys/net/ipv4/tcp_available_congestion_control")).trim();
        if (!List.of(available.split("\\s+")).contains(congestionControl)) {
            throw new IOException("congestion control " + congestionControl + " is not in this kernel (available: "
                    + available + ")");
        }
    }

    private static String run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try (var in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("setting up the link failed: " + String.join(" ", command) + ": " + output.trim());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while setting up the link", e);
        }
        return output;
    }
}
