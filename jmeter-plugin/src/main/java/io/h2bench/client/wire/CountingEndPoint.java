package io.h2bench.client.wire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The lowest Jetty end point of a client connection: every byte it reads from or writes to the
 * socket is what went on the wire (TLS records, HTTP/2 frames, HPACK blocks, HTTP/1.1 text).
 * With a bandwidth limit ({@link Pacer}) reads and writes wait their turn on the scheduler
 * instead of the selector, as JMeter's slow sockets sleep before each read and write.
 */
public final class CountingEndPoint extends SocketChannelEndPoint {

    private final WireConnection wire;
    private final Runnable onClosed;
    private final Scheduler scheduler;
    private final Pacer pacer;

    public CountingEndPoint(SocketChannel channel, ManagedSelector selector, SelectionKey key, Scheduler scheduler,
                     WireConnection wire, Runnable onClosed, int cps) {
        super(channel, selector, key, scheduler);
        this.wire = wire;
        this.onClosed = onClosed;
        this.scheduler = scheduler;
        this.pacer = cps > 0 ? new Pacer(cps) : null;
    }

    WireConnection wire() {
        return wire;
    }

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
        if (pacer != null && pacer.readWait() > 0) {
            return 0;
        }
        int filled = pacer == null ? super.fill(buffer) : pacer.limitedFill(buffer, super::fill);
        if (filled > 0) {
            wire.bytesRead(filled);
        }
        return filled;
    }

    @Override
    public boolean flush(ByteBuffer... buffers) throws IOException {
        long before = remaining(buffers);
        if (pacer != null && pacer.writeWait(before) > 0) {
            return false;
        }
        try {
            return super.flush(buffers);
        } finally {
            long written = before - remaining(buffers);
            if (written > 0) {
                wire.bytesWritten(written);
            }
            if (pacer != null && remaining(buffers) == 0) {
                pacer.written();
            }
        }
    }

    /** Read interest waits until the pacer lets the next read through. */
    @Override
    protected void needsFillInterest() {
        afterPacer(pacer == null ? 0 : pacer.readWait(), super::needsFillInterest);
    }

    /** A write held back by the pacer is retried when its time has come. */
    @Override
    protected void onIncompleteFlush() {
        afterPacer(pacer == null ? 0 : pacer.pendingWriteWait(), super::onIncompleteFlush);
    }

    /** Runs {@code step} once the pacer's {@code waitNanos} are over: now when there are none. */
    private void afterPacer(long waitNanos, Runnable step) {
        if (waitNanos > 0) {
            scheduler.schedule(step, waitNanos, TimeUnit.NANOSECONDS);
        } else {
            step.run();
        }
    }

    @Override
    public void onClose(Throwable cause) {
        try {
            super.onClose(cause);
        } finally {
            onClosed.run();
        }
    }

    private static long remaining(ByteBuffer[] buffers) {
        long total = 0;
        for (ByteBuffer buffer : buffers) {
            if (buffer != null) {
                total += buffer.remaining();
            }
        }
        return total;
    }
}
