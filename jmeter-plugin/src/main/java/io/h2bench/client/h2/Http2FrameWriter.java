package io.h2bench.client.h2;

import io.h2bench.client.profile.BrowserPreset;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.PrefaceFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.http2.frames.WindowUpdateFrame;
import org.eclipse.jetty.http2.generator.Generator;
import org.eclipse.jetty.http2.hpack.HpackEncoder;
import org.eclipse.jetty.http2.hpack.HpackException;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * The writing side of an {@link Http2FrameConnection}: frames queued in order (control frames and
 * requests' HEADERS alike, so that stream ids and the HPACK table advance in the order the server
 * reads them), then request bodies within the server's stream and connection windows, all into one
 * output buffer that goes out in one write at a time. Jetty's generator writes the control frames;
 * HEADERS are encoded by its HPACK encoder straight into that buffer, and a body's bytes are copied
 * there. The buffer comes from the pool for a run of writes and goes back when nothing is left to
 * write, so that an idle connection (400 users' worth) holds none. State is guarded by the
 * connection's lock.
 */
final class Http2FrameWriter extends IteratingCallback {

    private static final int OUT_BYTES = 64 * 1024;
    private static final int FRAME_HEADER = 9;
    /** The largest HEADERS block written, in one frame (no CONTINUATION): the client's own 8 KiB header list fits. */
    private static final int MAX_HEADER_BLOCK = 16 * 1024;
    /** Room kept for any control frame (GOAWAY carries a short reason). */
    private static final int CONTROL_ROOM = 1024;
    private static final int TYPE_DATA = 0x0;
    private static final int TYPE_HEADERS = 0x1;
    private static final int FLAG_END_STREAM = 0x1;
    private static final int FLAG_END_HEADERS = 0x4;
    /** Jetty's HTTP2Client: the HPACK table the client keeps for its requests at most, and its header list limit. */
    private static final int MAX_ENCODER_TABLE = 4096;
    private static final int MAX_REQUEST_HEADERS = 8192;

    private final Object lock;
    private final EndPoint endPoint;
    private final ByteBufferPool pool;
    private final Generator generator;
    private final HpackEncoder encoder = new HpackEncoder();
    /** The output from the pool while writes go on, else null: written by Jetty's generator and directly. */
    private RetainableByteBuffer.Mutable accumulator;
    /** The accumulator's buffer, written directly; in flush mode between writes by the generator and by this class. */
    private ByteBuffer out;
    /** Frames and requests (their HEADERS) in the order they go out. */
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    /** Requests whose body is (partly) unsent, in order. */
    private final ArrayDeque<Http2Exchange> bodies = new ArrayDeque<>();
    /** Requests whose last frame is in the write under way, told once it has returned. */
    private List<Http2Exchange> ending = new ArrayList<>();
    private final Consumer<Http2Exchange> unencodable;
    private final BrowserPreset.Http2 preset;
    /** Firefox raises each request stream's window past its SETTINGS' one right after its HEADERS. */
    private final int requestWindowDelta;
    private int nextStreamId = 1;
    private int connectionSendWindow = BrowserPreset.Http2.DEFAULT_WINDOW;
    private int initialStreamSendWindow = BrowserPreset.Http2.DEFAULT_WINDOW;
    private int maxFrameSize = Frame.DEFAULT_MAX_SIZE;
    /** Why the end point closes once what is queued is written (a connection error's GOAWAY), or null. */
    private Throwable closeAfterQueue;

    /** {@code unencodable}: a request whose HEADERS cannot be written; the connection must close after it. */
    Http2FrameWriter(Object lock, EndPoint endPoint, ByteBufferPool pool, BrowserPreset.Http2 preset,
                     Consumer<Http2Exchange> unencodable) {
        this.lock = lock;
        this.endPoint = endPoint;
        this.pool = pool;
        this.generator = new Generator(pool, false, 0);
        this.unencodable = unencodable;
        this.preset = preset;
        this.requestWindowDelta = Math.max(0, preset.requestStreamWindow() - preset.initialStreamWindow());
        encoder.setMaxHeaderListSize(MAX_REQUEST_HEADERS);
        encoder.setMaxTableCapacity(MAX_ENCODER_TABLE);
    }

    /** Queues a frame (under the lock). */
    void queue(Frame frame) {
        queue.add(frame);
    }

    /** Gives {@code exchange} the next stream id and queues its HEADERS, then its body (under the lock). */
    int queue(Http2Exchange exchange) {
        int id = nextStreamId;
        nextStreamId += 2;
        exchange.streamId = id;
        exchange.sendWindow = initialStreamSendWindow;
        byte[] body = exchange.request().body();
        exchange.body = body.length == 0 ? null : ByteBuffer.wrap(body);
        queue.add(exchange);
        return id;
    }

    /**
     * Queues the connection's start (under the lock): the preface, the preset's SETTINGS in its order
     * and its connection window, in one write. {@code upgraded}: the h2c Upgrade's request, sent over
     * HTTP/1.1, which is stream 1 (our streams go on from 3); null on a connection that began as HTTP/2.
     */
    void queueStart(ReceiveWindows windows, Http2Exchange upgraded) {
        queue.add(new PrefaceFrame());
        queue.add(new SettingsFrame(preset.settings(), false));
        int windowDelta = preset.connectionWindow() - BrowserPreset.Http2.DEFAULT_WINDOW;
        if (windowDelta > 0) {
            queue.add(new WindowUpdateFrame(0, windowDelta));
            windows.connectionWindowSent(windowDelta);
        }
        if (upgraded != null) {
            upgraded.streamId = 1;
            upgraded.sendWindow = initialStreamSendWindow;
            nextStreamId = 3;
        }
    }

    /**
     * Writes what is queued, and no more request body, then closes the end point with {@code cause}
     * (under the lock): a GOAWAY queued last reaches the server even while a write is under way.
     */
    void closeAfterQueue(Throwable cause) {
        closeAfterQueue = cause;
    }

    /** The request's body is no longer to be sent (the stream ended or was reset; under the lock). */
    void forget(Http2Exchange exchange) {
        exchange.body = null;
        bodies.remove(exchange);
    }

    /** The server's SETTINGS (under the lock): every open stream's window moves by the change of the initial one. */
    void peerSettings(java.util.Map<Integer, Integer> settings, Iterable<Http2Exchange> open) {
        settings.forEach((key, value) -> {
            switch (key) {
                case BrowserPreset.Http2.HEADER_TABLE_SIZE -> {
                    encoder.setMaxTableCapacity(value);
                    encoder.setTableCapacity(Math.min(value, MAX_ENCODER_TABLE));
                }
                case BrowserPreset.Http2.INITIAL_WINDOW_SIZE -> {
                    int delta = value - initialStreamSendWindow;
                    initialStreamSendWindow = value;
                    for (Http2Exchange exchange : open) {
                        exchange.sendWindow += delta;
                    }
                }
                case BrowserPreset.Http2.MAX_FRAME_SIZE -> maxFrameSize = value;
                case BrowserPreset.Http2.MAX_HEADER_LIST_SIZE -> encoder.setMaxHeaderListSize(Math.min(value, encoder.getMaxHeaderListSize()));
                default -> {
                }
            }
        });
    }

    /** A WINDOW_UPDATE from the server (under the lock); {@code stream} null for the connection's. */
    void sendWindowUpdate(Http2Exchange stream, int delta) {
        if (stream == null) {
            connectionSendWindow += delta;
        } else {
            stream.sendWindow += delta;
        }
    }

    @Override
    protected Action process() {
        List<Http2Exchange> written;
        synchronized (lock) {
            written = ending;
            ending = written.isEmpty() ? written : new ArrayList<>();
        }
        for (Http2Exchange exchange : written) {
            exchange.requestWritten();
        }
        written.clear();
        ByteBuffer output = null;
        Throwable closing = null;
        synchronized (lock) {
            if (!queue.isEmpty() || closeAfterQueue == null && !bodies.isEmpty() && connectionSendWindow > 0) {
                if (accumulator == null) {
                    accumulator = pool.acquire(OUT_BYTES, false);
                    out = accumulator.getByteBuffer();
                }
                accumulator.clear();
                generateControlAndHeaders();
                generateData();
                output = accumulator.hasRemaining() ? accumulator.getByteBuffer() : null;
            }
            if (output == null) {
                releaseOutput();
                closing = queue.isEmpty() ? closeAfterQueue : null;
            }
        }
        if (closing != null) {
            endPoint.close(closing);
            return Action.SUCCEEDED;
        }
        if (output == null) {
            return Action.IDLE;
        }
        endPoint.write(this, output);
        return Action.SCHEDULED;
    }

    /** The output goes back to the pool (under the lock): no write is under way. */
    private void releaseOutput() {
        if (accumulator != null) {
            accumulator.release();
            accumulator = null;
            out = null;
        }
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        // Called once no write is under way any more (IteratingCallback's contract), so the buffer is free.
        synchronized (lock) {
            releaseOutput();
        }
        endPoint.close(cause);
    }

    private void generateControlAndHeaders() {
        while (!queue.isEmpty()) {
            Object next = queue.peek();
            if (next instanceof Frame frame) {
                if (accumulator.space() < CONTROL_ROOM) {
                    return;
                }
                try {
                    generator.control(accumulator, frame);
                } catch (HpackException impossible) {
                    throw new IllegalStateException(impossible); // only HEADERS encode
                }
            } else {
                Http2Exchange exchange = (Http2Exchange) next;
                if (!exchange.finished() && !headers(exchange)) {
                    return;
                }
            }
            queue.poll();
        }
    }

    /** Writes the request's HEADERS; false when they must wait for the next write (no room left in this one). */
    private boolean headers(Http2Exchange exchange) {
        if (accumulator.space() < FRAME_HEADER + MAX_HEADER_BLOCK + FRAME_HEADER + 4 && accumulator.hasRemaining()) {
            return false;
        }
        MetaData.Request metaData = exchange.requestHeaders();
        boolean endStream = exchange.body == null;
        accumulator.getByteBuffer(); // the accumulator's buffer in flush mode, whatever it last wrote
        int flush = BufferUtil.flipToFill(out);
        int start = out.position();
        out.position(start + FRAME_HEADER).limit(start + FRAME_HEADER + MAX_HEADER_BLOCK);
        try {
            encoder.encode(out, metaData);
        } catch (HpackException | BufferOverflowException tooLarge) {
            out.position(start).limit(out.capacity());
            BufferUtil.flipToFlush(out, flush);
            unencodable.accept(exchange);
            return true;
        }
        int length = out.position() - start - FRAME_HEADER;
        out.limit(out.capacity());
        frameHeader(start, length, TYPE_HEADERS, FLAG_END_HEADERS | (endStream ? FLAG_END_STREAM : 0), exchange.streamId);
        BufferUtil.flipToFlush(out, flush);
        if (requestWindowDelta > 0) {
            try {
                generator.control(accumulator, new WindowUpdateFrame(exchange.streamId, requestWindowDelta));
            } catch (HpackException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        if (endStream) {
            ending.add(exchange);
        } else if (!exchange.waitForContinue(() -> sendBody(exchange))) {
            bodies.add(exchange);
        }
        return true;
    }

    /** The body of a request that waited for a 100 Continue may go now (RFC 9113 8.1.1: DATA after the HEADERS). */
    private void sendBody(Http2Exchange exchange) {
        synchronized (lock) {
            if (exchange.body == null || bodies.contains(exchange)) {
                return; // the stream ended meanwhile
            }
            bodies.add(exchange);
        }
        iterate();
    }

    /** As much of the bodies as the windows and this write's room allow, oldest request first. */
    private void generateData() {
        if (closeAfterQueue != null) {
            return;
        }
        Iterator<Http2Exchange> each = bodies.iterator();
        while (each.hasNext() && connectionSendWindow > 0) {
            Http2Exchange exchange = each.next();
            ByteBuffer body = exchange.body;
            while (body != null && body.hasRemaining()) {
                int room = (int) accumulator.space() - FRAME_HEADER;
                int size = Math.min(Math.min(body.remaining(), maxFrameSize), Math.min(room, Math.min(exchange.sendWindow, connectionSendWindow)));
                if (size <= 0) {
                    break;
                }
                boolean last = size == body.remaining();
                accumulator.getByteBuffer();
                int flush = BufferUtil.flipToFill(out);
                int start = out.position();
                out.position(start + FRAME_HEADER);
                ByteBuffer slice = body.slice();
                slice.limit(size);
                out.put(slice);
                body.position(body.position() + size);
                frameHeader(start, size, TYPE_DATA, last ? FLAG_END_STREAM : 0, exchange.streamId);
                BufferUtil.flipToFlush(out, flush);
                exchange.sendWindow -= size;
                connectionSendWindow -= size;
                if (last) {
                    exchange.body = null;
                    each.remove();
                    ending.add(exchange);
                }
            }
            if (accumulator.space() <= FRAME_HEADER) {
                return;
            }
        }
    }

    private void frameHeader(int at, int length, int type, int flags, int streamId) {
        out.put(at, (byte) (length >>> 16));
        out.put(at + 1, (byte) (length >>> 8));
        out.put(at + 2, (byte) length);
        out.put(at + 3, (byte) type);
        out.put(at + 4, (byte) flags);
        out.putInt(at + 5, streamId & 0x7fff_ffff);
    }
}
