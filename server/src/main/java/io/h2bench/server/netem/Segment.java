package io.h2bench.server.netem;

import java.nio.ByteBuffer;

/** A piece of one direction's byte stream on its way across the link, or the FIN or RST ending it. */
final class Segment {

    /** Ethernet MSS over IPv4: the unit that is lost and retransmitted. */
    static final int MSS = 1460;

    private final ByteBuffer bytes;
    private final int length;
    private final Kind kind;
    /** System.nanoTime at which the far end may have it; later for a lost segment. */
    long arriveAt;

    enum Kind { DATA, FIN, RESET }

    private Segment(ByteBuffer bytes, Kind kind) {
        this.bytes = bytes;
        this.length = bytes.remaining();
        this.kind = kind;
    }

    /** Shares {@code data}: the segments of one read are cut from the same array. */
    static Segment of(byte[] data, int offset, int length) {
        return new Segment(ByteBuffer.wrap(data, offset, length), Kind.DATA);
    }

    /** The source shut its output down (or closed): the destination's output is shut down. */
    static Segment fin() {
        return new Segment(ByteBuffer.allocate(0), Kind.FIN);
    }

    /** The source's connection was reset: once the bytes before it are through, both sides are reset. */
    static Segment reset() {
        return new Segment(ByteBuffer.allocate(0), Kind.RESET);
    }

    Kind kind() {
        return kind;
    }

    boolean isData() {
        return kind == Kind.DATA;
    }

    int length() {
        return length;
    }

    /** The bytes not yet written to the destination; writing advances it. */
    ByteBuffer unwritten() {
        return bytes;
    }
}
