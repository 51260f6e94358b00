package io.h2bench.server.netem.kernel;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/** This process's effective capabilities, from /proc/self/status (CapEff, a hexadecimal mask). */
final class Capabilities {

    static final int CAP_SYS_ADMIN = 21;

    private Capabilities() {
    }

    /** An empty set when /proc cannot tell. */
    static BitSet effective() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return BitSet.valueOf(new long[] {new BigInteger(line.substring(7).trim(), 16).longValue()});
                }
            }
        } catch (IOException | NumberFormatException e) {
            return new BitSet();
        }
        return new BitSet();
    }
}
