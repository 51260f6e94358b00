package io.h2bench.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether Linux's TCP memory went past its pressure threshold (the second value of
 * {@code net.ipv4.tcp_mem}) since a mark. Under pressure the kernel shrinks the buffers of every TCP
 * socket on the machine, so a download takes more round trips than slow start's model: not the
 * model's network. Other tests could cause it: in this build, which runs both modules at once, the
 * server's unread downloads held 1.7 GB (HeavyRequestsTest) and 0.75 GB (SlowReadersTest) until
 * both capped their send buffers; another build on the same machine still can. Read from
 * {@code /proc/net/netstat} (entries into pressure and the milliseconds spent in it, counted when it
 * ends) and {@code /proc/net/protocols} (pressure now).
 */
final class TcpMemoryPressure {

    private static final Path NETSTAT = Path.of("/proc/net/netstat");
    private static final Path PROTOCOLS = Path.of("/proc/net/protocols");

    /** The counters at a moment; both -1 where the kernel does not tell. */
    record Mark(long entered, long millis) {
    }

    private TcpMemoryPressure() {
    }

    static Mark mark() {
        return new Mark(counter("TCPMemoryPressures"), counter("TCPMemoryPressuresChrono"));
    }

    /** True when the kernel is under TCP memory pressure now or was at some moment since {@code mark}. */
    static boolean since(Mark mark) {
        return underPressureNow() || !mark().equals(mark);
    }

    private static boolean underPressureNow() {
        for (String line : lines(PROTOCOLS)) {
            String[] columns = line.trim().split("\\s+");
            if (columns.length > 4 && columns[0].equals("TCP")) {
                return columns[4].equals("yes"); // protocol size sockets memory press ...
            }
        }
        return false;
    }

    /** A TcpExt counter: /proc/net/netstat has a line of names, then a line of values, per group. */
    private static long counter(String name) {
        List<String> lines = lines(NETSTAT);
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            String[] names = lines.get(i).split("\\s+");
            String[] values = lines.get(i + 1).split("\\s+");
            for (int column = 1; column < Math.min(names.length, values.length); column++) {
                if (names[0].equals("TcpExt:") && names[column].equals(name)) {
                    return Long.parseLong(values[column]);
                }
            }
        }
        return -1;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException | UnsupportedOperationException notLinux) {
            return List.of();
        }
    }
}
