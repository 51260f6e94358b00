package io.h2bench.server.netem;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * TCP's loss recovery as the application sees it: which segments are lost, and when their
 * retransmission arrives. One instance per direction of a connection, so a seed replays the same
 * pattern on the same traffic whatever the other connections do.
 */
final class LossModel {

    /** Linux's tcp_rto_min. Its RTO is srtt + max(4 rttvar, rto_min): on a steady link, RTT + 200 ms. */
    static final long MIN_RTO_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final double probability;
    private final long rttNanos;
    private final SplittableRandom random;

    LossModel(double probability, long rttNanos, long seed, long connectionIndex, boolean down) {
        this.probability = probability;
        this.rttNanos = rttNanos;
        long stream = connectionIndex * 2 + (down ? 1 : 0);
        this.random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + stream);
    }

    boolean nextIsLost() {
        return probability > 0 && random.nextDouble() < probability;
    }

    /** No later segment came to trigger duplicate ACKs: the retransmission timer fires. */
    long arrivalByTimeout(long wouldHaveArrived) {
        return wouldHaveArrived + rttNanos + MIN_RTO_NANOS;
    }

    /**
     * A later segment arrived at {@code laterArrived}; its duplicate ACK (SACK) reaches the sender
     * half an RTT later and the retransmission takes another half: fast retransmit.
     */
    long arrivalByFastRetransmit(long laterArrived) {
        return laterArrived + rttNanos;
    }
}
