package io.h2bench.sampler;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A web server from Debian's packages (Apache httpd, Caddy) run by a test as a process of its own,
 * on 127.0.0.1 and a free port, with its configuration and files in the test's directory; stopped
 * on close. A missing server skips the test, except on CI (CI=true), where bin/test installs it.
 */
final class OutsideServer implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    private OutsideServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Skips the test when {@code executable} is missing; on CI that is a failure. */
    static void require(Path executable, String debianPackage) {
        if (!Files.isExecutable(executable) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install Debian's " + debianPackage + " (bin/test): " + executable + " is missing");
        }
        assumeTrue(Files.isExecutable(executable), executable + " is not installed (apt-get install " + debianPackage + ")");
    }

    /** A port free now, for a server that takes a number, not 0 (the race with other binds is accepted). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * {@code count} different ports free now for both TCP and UDP (a server with h3 beside h1 and h2
     * takes the same number for both), all held until all are found so that none comes twice.
     */
    static int[] freePorts(int count) throws IOException {
        List<AutoCloseable> held = new ArrayList<>();
        int[] ports = new int[count];
        try {
            for (int found = 0; found < count; ) {
                ServerSocket tcp = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(tcp);
                try {
                    held.add(new DatagramSocket(tcp.getLocalPort(), InetAddress.getLoopbackAddress()));
                    ports[found++] = tcp.getLocalPort();
                } catch (SocketException udpTaken) {
                    // that number is taken for UDP: try another
                }
            }
            return ports;
        } finally {
            for (AutoCloseable socket : held) {
                try {
                    socket.close();
                } catch (Exception ignored) {
                    // a socket of a probe: nothing to do
                }
            }
        }
    }

    /** Runs {@code command} with its output in {@code log} and returns once it accepts connections on {@code port}. */
    static OutsideServer start(List<String> command, Path workDir, int port, Path log) throws Exception {
        return start(command, workDir, new InetSocketAddress("127.0.0.1", port), log);
    }

    /** As {@link #start}, for a server listening on another address (in a kernel link's namespace). */
    static OutsideServer start(List<String> command, Path workDir, InetSocketAddress listening, Path log) throws Exception {
        OutsideServer server = launch(command, workDir, listening.getPort(), log);
        server.awaitListening(command.get(0), listening);
        return server;
    }

    /** As {@link #start}, for a server on UDP only (HTTP/3): returns once {@code port} is bound for UDP on loopback. */
    static OutsideServer startUdp(List<String> command, Path workDir, int port, Path log) throws Exception {
        OutsideServer server = launch(command, workDir, port, log);
        server.awaitUdpBound(command.get(0));
        return server;
    }

    private static OutsideServer launch(List<String> command, Path workDir, int port, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        // Caddy keeps state under HOME and the XDG folders: the test's directory, not the user's.
        builder.environment().put("HOME", workDir.toString());
        builder.environment().put("XDG_DATA_HOME", workDir.resolve("data").toString());
        builder.environment().put("XDG_CONFIG_HOME", workDir.resolve("config").toString());
        return new OutsideServer(builder.start(), port, log);
    }

    int port() {
        return port;
    }

    private void awaitListening(String name, InetSocketAddress listening) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (Socket socket = new Socket()) {
                socket.connect(listening, 1_000);
                return;
            } catch (IOException notYet) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(name + " exited: " + Files.readString(log));
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        throw new IllegalStateException(name + " did not listen on " + listening + " within 100 tries: " + Files.readString(log));
    }

    /** Waits for the port in the kernel's table of UDP sockets (binding it to find out would race the server). */
    private void awaitUdpBound(String name) throws Exception {
        String local = String.format(":%04X ", port);
        for (int attempt = 0; attempt < 100; attempt++) {
            if (Files.readAllLines(Path.of("/proc/net/udp")).stream().anyMatch(line -> line.contains(local))) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited: " + Files.readString(log));
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new IllegalStateException(name + " did not bind UDP " + port + " within 10 s: " + Files.readString(log));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
