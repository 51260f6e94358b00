package io.h2bench.sampler;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A Debian daemon a test starts in the foreground on 127.0.0.1 (squid, Apache as a proxy), with its files in one directory. */
final class LocalDaemon {

    private LocalDaemon() {
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Waits up to 10 s for {@code port} to accept; {@code output}: what the daemon printed, shown if it exited. */
    static void awaitListening(String name, Process process, int port, Path output) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(name + " exited: " + Files.readString(output));
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        throw new IllegalStateException(name + " did not listen on " + port + " within 10 s");
    }

    /** Stops the daemon and removes its directory. */
    static void stop(Process process, Path dir) throws Exception {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
