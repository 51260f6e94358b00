package io.h2bench.server.netem.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A device's counters from /proc/thread-self/net/dev: the calling thread's namespace's view. */
final class TunStatistics {

    /** Column of tx "drop" after the device name: 8 receive columns, then bytes, packets, errs, drop. */
    private static final int TX_DROP_COLUMN = 11;

    private TunStatistics() {
    }

    /** The device's tx_dropped in the calling thread's namespace; 0 when it is not there. */
    static long txDropped(String device) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/net/dev"))) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(device)) {
                    return Long.parseLong(line.substring(colon + 1).trim().split("\\s+")[TX_DROP_COLUMN]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
