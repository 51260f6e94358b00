package io.h2bench.server.netem.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The kernel's TCP memory pressure, which is one for the whole machine (tcp_mem counts every
 * namespace's sockets): while it lasts the kernel shrinks and prunes socket buffers and drops what
 * they cannot take, so a download's time says nothing about the link it crossed.
 */
final class TcpMemory {

    private static final Path PROTOCOLS = Path.of("/proc/net/protocols");

    private TcpMemory() {
    }

    /** The kernel's own flag, the "press" column of TCP's line in /proc/net/protocols. */
    static boolean underPressure() throws IOException {
        for (String line : Files.readAllLines(PROTOCOLS)) {
            String[] columns = line.trim().split("\\s+");
            if (columns[0].equals("TCP")) {
                return columns[4].equals("yes");
            }
        }
        throw new IOException("no TCP line in " + PROTOCOLS);
    }

    /** Until the pressure is over or {@code within} passed; true if it is over. */
    static boolean awaitNoPressure(Duration within) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (underPressure() && System.nanoTime() < deadline) {
            Thread.sleep(100); // polling, not a timing assertion
        }
        return !underPressure();
    }
}
