package io.h2bench.server.objects;

import java.io.IOException;
import java.nio.ByteBuffer;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.ee10.servlet.HttpOutput;

/**
 * Writes every servlet's response body without blocking (the core handlers write theirs with {@link DirectBodyWrite}): the servlet returns at once and
 * Jetty calls {@link #onWritePossible()} whenever the connection can take more. A client that stops
 * reading (or keeps an HTTP/2 window at 0) then holds no server thread, only its buffers, until the
 * connector's idle timeout ends the response (SlowReadersTest: 1,200 such responses held 191 of the
 * 200 threads and starved everyone else while servlets wrote in blocking mode).
 * <p>
 * Bodies held in direct buffers leave in pieces of up to {@value #WRITE} bytes. Jetty's
 * {@code HttpOutput} cuts an array or heap buffer into pieces of its 32 KiB buffer, one socket write
 * each, and the JDK copies each piece into a direct buffer of its own before the socket takes it; over
 * TLS each piece also ends in a short record of what did not fill the piece's last one. A 44 kB body
 * took two writes over h1 and four TLS records over h1-tls instead of three, a 2 MiB one 64 writes and
 * 64 short records more (issue 41). A direct piece goes out whole, as far as the socket takes it, and
 * costs no memory per response: every response shares the one buffer.
 */
final class NonBlockingBody implements WriteListener {

    /** Most bytes per piece handed to Jetty: over TLS, a short record every 1 MiB at most. */
    static final int WRITE = 1024 * 1024;

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final Repeating source;
    private final long size;
    private long sent;

    private NonBlockingBody(AsyncContext async, ServletOutputStream out, Repeating source, long size) {
        this.async = async;
        this.out = out;
        this.source = source;
        this.size = size;
    }

    /** Sends {@code body} as the whole response body, with its Content-Length; a HEAD request gets the length only. */
    static void send(HttpServletRequest request, HttpServletResponse response, byte[] body) throws IOException {
        send(request, response, ByteBuffer.wrap(body));
    }

    /** As {@link #send(HttpServletRequest, HttpServletResponse, byte[])}, for a body held in a buffer ({@link #direct}), never changed. */
    static void send(HttpServletRequest request, HttpServletResponse response, ByteBuffer body) throws IOException {
        response.setContentLength(body.capacity());
        if ("HEAD".equals(request.getMethod())) {
            return;
        }
        start(request.startAsync(), response, new Repeating(body, body.capacity()), body.capacity());
    }

    private static void start(AsyncContext async, HttpServletResponse response, Repeating source, long size) throws IOException {
        async.setTimeout(0); // no deadline of its own: the connector's idle timeout ends a response nobody reads
        ServletOutputStream out = response.getOutputStream();
        out.setWriteListener(new NonBlockingBody(async, out, source, size));
    }

    @Override
    public void onWritePossible() throws IOException {
        while (out.isReady()) {
            if (sent == size) {
                async.complete();
                return;
            }
            ByteBuffer piece = source.piece(sent, size);
            sent += piece.remaining();
            if (out instanceof HttpOutput jetty) {
                jetty.write(piece); // a direct piece goes out whole
            } else {
                byte[] copy = new byte[piece.remaining()];
                piece.get(copy);
                out.write(copy);
            }
        }
    }

    @Override
    public void onError(Throwable failure) {
        async.complete(); // the client left or the idle timeout fired: nobody to tell
    }

    /** A read-only direct copy of {@code bytes}, for a body sent again and again. */
    static ByteBuffer direct(byte[] bytes) {
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip().asReadOnlyBuffer();
    }

    /** A body of any length made of {@code period} repeated, in a direct buffer ({@link OptionHandler}'s). */
    static Repeating repeating(byte[] period) {
        int copies = WRITE / period.length + 2; // a piece may start anywhere in the first copy and take WRITE bytes
        byte[] bytes = new byte[copies * period.length];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(period, 0, bytes, i * period.length, period.length);
        }
        return new Repeating(direct(bytes), period.length);
    }

    /** {@link #repeating}'s period, copied over and over into one read-only direct buffer (a body sent once: one copy). */
    record Repeating(ByteBuffer copies, int period) {

        /** The next piece of a body of {@code size} bytes after its first {@code sent}: at most {@link #WRITE} bytes, a view, no copy. */
        ByteBuffer piece(long sent, long size) {
            // Where the body stands in its period; enough copies are held that a piece never wraps.
            int offset = (int) (sent % period);
            int length = (int) Math.min(size - sent, Math.min(WRITE, copies.capacity() - offset));
            return copies.duplicate().limit(offset + length).position(offset);
        }
    }
}
