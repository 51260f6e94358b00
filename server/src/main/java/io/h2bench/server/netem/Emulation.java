package io.h2bench.server.netem;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/** What the connections of one proxy share: the loop, the two links, the settings and the counters. */
final class Emulation {

    private static final int READ_BUFFER_BYTES = 64 * 1024;

    private final EventLoop loop;
    private final LinkProfile profile;
    private final Link downLink;
    private final Link upLink;
    private final long rttNanos;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    private final AtomicLong segmentsSent = new AtomicLong();
    private final AtomicLong segmentsLost = new AtomicLong();

    Emulation(EventLoop loop, LinkProfile profile) {
        this.loop = loop;
        this.profile = profile;
        this.downLink = profile.downBitsPerSecond() > 0 ? new Link(loop, profile.downBitsPerSecond()) : null;
        this.upLink = profile.upBitsPerSecond() > 0 ? new Link(loop, profile.upBitsPerSecond()) : null;
        this.rttNanos = profile.rtt().toNanos();
    }

    EventLoop loop() {
        return loop;
    }

    /** Server to client; null when unlimited. */
    Link downLink() {
        return downLink;
    }

    /** Client to server; null when unlimited. */
    Link upLink() {
        return upLink;
    }

    long rttNanos() {
        return rttNanos;
    }

    long oneWayNanos() {
        return rttNanos / 2;
    }

    /** Null when the profile loses nothing. */
    LossModel lossModel(long connectionIndex, boolean down) {
        if (profile.loss() == 0) {
            return null;
        }
        return new LossModel(profile.loss(), rttNanos, profile.seed(), connectionIndex, down);
    }

    /** Scratch space for reads; safe to share because only the loop thread reads. */
    ByteBuffer readBuffer() {
        return readBuffer;
    }

    void countSegment(boolean lost) {
        segmentsSent.incrementAndGet();
        if (lost) {
            segmentsLost.incrementAndGet();
        }
    }

    long segmentsSent() {
        return segmentsSent.get();
    }

    long segmentsLost() {
        return segmentsLost.get();
    }
}
