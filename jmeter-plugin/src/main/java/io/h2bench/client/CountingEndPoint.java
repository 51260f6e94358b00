package io.h2bench.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The lowest Jetty end point of a client connection: every byte it reads from or writes to the
 * socket is what went on the wire (TLS records, HTTP/2 frames, HPACK blocks, HTTP/1.1 text).
 */
final class CountingEndPoint extends SocketChannelEndPoint {

    private final WireConnection wire;
    private final Runnable onClosed;

    CountingEndPoint(SocketChannel channel, ManagedSelector selector, SelectionKey key, Scheduler scheduler,
                     WireConnection wire, Runnable onClosed) {
        super(channel, selector, key, scheduler);
        this.wire = wire;
        this.onClosed = onClosed;
    }

    WireConnection wire() {
        return wire;
    }

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
        int filled = super.fill(buffer);
        if (filled > 0) {
            wire.bytesRead(filled);
        }
        return filled;
    }

    @Override
    public boolean flush(ByteBuffer... buffers) throws IOException {
        long before = remaining(buffers);
        try {
            return super.flush(buffers);
        } finally {
            long written = before - remaining(buffers);
            if (written > 0) {
                wire.bytesWritten(written);
            }
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
