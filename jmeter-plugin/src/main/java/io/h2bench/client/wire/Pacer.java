package io.h2bench.client.wire;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.util.BufferUtil;

/**
 * JMeter's {@code httpclient.socket.http(s).cps} for one connection: reads and writes go at most at
 * {@code cps} bytes per second. A write of n bytes waits n/cps before it goes out (JMeter's
 * {@code SlowOutputStream} sleeps, then writes); a read of n bytes holds the next read back n/cps,
 * and reads at most 1/20 s worth at once, so one large socket read cannot arrive faster than the
 * limit. Times are {@link System#nanoTime()}; the selector never sleeps, the end point asks later.
 */
final class Pacer {

    /** Reads are cut into slices of this many seconds' worth of bytes. */
    private static final int SLICES_PER_SECOND = 20;

    private final long cps;
    private final int slice;
    private long nextReadNanos;
    private long writeDueNanos;

    Pacer(int cps) {
        this.cps = cps;
        this.slice = Math.max(1, cps / SLICES_PER_SECOND);
    }

    /** How long a read must still wait, in nanoseconds (0: now). */
    synchronized long readWait() {
        return Math.max(0, nextReadNanos - System.nanoTime());
    }

    interface Filler {
        int fill(ByteBuffer buffer) throws IOException;
    }

    /** Reads at most one slice into {@code buffer} (flush mode, appended) and charges it. */
    int limitedFill(ByteBuffer buffer, Filler socket) throws IOException {
        int room = buffer.capacity() - buffer.limit();
        if (room <= slice) {
            return charge(socket.fill(buffer));
        }
        ByteBuffer part = BufferUtil.allocate(slice);
        int filled = socket.fill(part);
        if (filled > 0) {
            BufferUtil.append(buffer, part);
        }
        return charge(filled);
    }

    private synchronized int charge(int bytes) {
        if (bytes > 0) {
            nextReadNanos = Math.max(nextReadNanos, System.nanoTime()) + bytes * 1_000_000_000L / cps;
        }
        return bytes;
    }

    /** Before a write of {@code bytes}: its pause starts now if none is running; the wait that is left. */
    synchronized long writeWait(long bytes) {
        long now = System.nanoTime();
        if (writeDueNanos == 0) {
            writeDueNanos = now + bytes * 1_000_000_000L / cps;
        }
        return Math.max(0, writeDueNanos - now);
    }

    /** The wait left for the write being held back. */
    synchronized long pendingWriteWait() {
        return writeDueNanos == 0 ? 0 : Math.max(0, writeDueNanos - System.nanoTime());
    }

    /** All bytes of the write went out: the next write starts its own pause. */
    synchronized void written() {
        writeDueNanos = 0;
    }
}
