package io.h2bench.server.netem.kernel;

import com.sun.jna.Pointer;

/** Decides which packets one direction of the link loses. One thread calls it. */
interface PacketLoss {

    /** True when the link drops this packet (a raw IP packet of {@code length} bytes). */
    boolean drops(Pointer packet, int length);

    /** Packets dropped so far. */
    long lostPackets();

    /**
     * The loss of one direction.
     *
     * @param seed the run's seed; the direction's salt keeps up and down apart
     */
    static PacketLoss of(LossPattern pattern, double probability, long seed, boolean down) {
        long directionSeed = seed * 2 + (down ? 1 : 0);
        if (probability == 0) {
            return new RandomLoss(0, directionSeed);
        }
        return switch (pattern) {
            case RANDOM -> new RandomLoss(probability, directionSeed);
            case PER_CONNECTION -> new PerConnectionLoss(probability, directionSeed, PerConnectionLoss.Patterns.ONE);
            case NTH_CONNECTION -> new PerConnectionLoss(probability, directionSeed,
                    down ? PerConnectionLoss.Patterns.BY_SOURCE_PORT : PerConnectionLoss.Patterns.BY_DESTINATION_PORT);
        };
    }
}
