package io.h2bench.server.netem.kernel;

import com.sun.jna.Pointer;
import java.util.SplittableRandom;

/** Bernoulli loss over every packet, seeded: {@link LossPattern#RANDOM}. */
final class RandomLoss implements PacketLoss {

    private final double probability;
    private final SplittableRandom random;
    private long lost;

    RandomLoss(double probability, long seed) {
        this.probability = probability;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public boolean drops(Pointer packet, int length) {
        return nextIsLost();
    }

    boolean nextIsLost() {
        if (probability > 0 && random.nextDouble() < probability) {
            lost++;
            return true;
        }
        return false;
    }

    @Override
    public long lostPackets() {
        return lost;
    }
}
