package io.h2bench.server.netem.kernel;

import java.util.SplittableRandom;

/**
 * What one direction of the link does to a packet, as arithmetic on its arrival time: random loss
 * (Bernoulli, seeded), then a drop-tail queue of {@code queuePackets} in front of a serialiser at
 * {@code bitsPerSecond} (0 = unlimited), then the fixed one-way delay. Returns when the packet
 * leaves the far end, so the relay needs no thread per stage. One thread calls it.
 */
final class LinkShaper {

    /** Returned by {@link #admit} for a packet the link drops. */
    static final long DROPPED = Long.MIN_VALUE;

    private final double loss;
    private final SplittableRandom random;
    private final long bitsPerSecond;
    private final long delayNanos;
    /** Finish times of the packets still in the queue or on the wire, oldest first (a ring). */
    private final long[] inQueue;
    private int queueHead;
    private int queueSize;
    private long linkFree;
    private long lostPackets;
    private long queueDrops;

    LinkShaper(double loss, long seed, long bitsPerSecond, long delayNanos, int queuePackets) {
        if (queuePackets < 1) {
            throw new IllegalArgumentException("the queue must hold at least one packet: " + queuePackets);
        }
        this.loss = loss;
        this.random = new SplittableRandom(seed);
        this.bitsPerSecond = bitsPerSecond;
        this.delayNanos = delayNanos;
        this.inQueue = new long[queuePackets];
    }

    /** The time (System.nanoTime) the packet arrives at the far end, or {@link #DROPPED}. */
    long admit(int bytes, long now) {
        if (loss > 0 && random.nextDouble() < loss) {
            lostPackets++;
            return DROPPED;
        }
        if (bitsPerSecond == 0) {
            return now + delayNanos;
        }
        forgetSentBy(now);
        if (queueSize == inQueue.length) {
            queueDrops++;
            return DROPPED;
        }
        long finish = Math.max(now, linkFree) + bytes * 8L * 1_000_000_000L / bitsPerSecond;
        linkFree = finish;
        inQueue[(queueHead + queueSize) % inQueue.length] = finish;
        queueSize++;
        return finish + delayNanos;
    }

    long lostPackets() {
        return lostPackets;
    }

    long queueDrops() {
        return queueDrops;
    }

    private void forgetSentBy(long now) {
        while (queueSize > 0 && inQueue[queueHead] <= now) {
            queueHead = (queueHead + 1) % inQueue.length;
            queueSize--;
        }
    }
}
