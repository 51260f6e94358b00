package io.h2bench.server.netem.kernel;

/**
 * What one direction of the link does to a packet that its {@link PacketLoss} let pass, as
 * arithmetic on its arrival time: a drop-tail queue of {@code queuePackets} in front of a serialiser at
 * {@code bitsPerSecond} (0 = unlimited), then the fixed one-way delay. Returns when the packet
 * leaves the far end, so the relay needs no thread per stage. One thread calls it.
 */
final class LinkShaper {

    /** Returned by {@link #admit} for a packet the link drops. */
    static final long DROPPED = Long.MIN_VALUE;

    private final long bitsPerSecond;
    private final long delayNanos;
    /** Finish times of the packets still in the queue or on the wire, oldest first (a ring). */
    private final long[] inQueue;
    private int queueHead;
    private int queueSize;
    private long linkFree;
    private long queueDrops;

    LinkShaper(long bitsPerSecond, long delayNanos, int queuePackets) {
        if (queuePackets < 1) {
            throw new IllegalArgumentException("the queue must hold at least one packet: " + queuePackets);
        }
        this.bitsPerSecond = bitsPerSecond;
        this.delayNanos = delayNanos;
        this.inQueue = new long[queuePackets];
    }

    /** The time (System.nanoTime) the packet arrives at the far end, or {@link #DROPPED}. */
    long admit(int bytes, long now) {
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
