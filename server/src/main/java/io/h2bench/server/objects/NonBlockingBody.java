package io.h2bench.server.objects;

import java.io.IOException;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Writes every response body of the test objects without blocking: the servlet returns at once and
 * Jetty calls {@link #onWritePossible()} whenever the connection can take more. A client that stops
 * reading (or keeps an HTTP/2 window at 0) then holds no server thread, only its buffers, until the
 * connector's idle timeout ends the response (SlowReadersTest: 1,200 such responses held 191 of the
 * 200 threads and starved everyone else while servlets wrote in blocking mode).
 */
final class NonBlockingBody implements WriteListener {

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final byte[] pattern;
    private long left;

    private NonBlockingBody(AsyncContext async, ServletOutputStream out, byte[] pattern, long size) {
        this.async = async;
        this.out = out;
        this.pattern = pattern;
        this.left = size;
    }

    /** Sends {@code body} as the whole response body, with its Content-Length; a HEAD request gets the length only. */
    static void send(HttpServletRequest request, HttpServletResponse response, byte[] body) throws IOException {
        response.setContentLength(body.length);
        if ("HEAD".equals(request.getMethod())) {
            return;
        }
        start(request.startAsync(), response, body, body.length);
    }

    /**
     * Sends {@code size} bytes, {@code pattern} over and over, on an async context already started. The
     * bytes are handed to Jetty without a copy, so {@code pattern} must never change.
     */
    static void start(AsyncContext async, HttpServletResponse response, byte[] pattern, long size) throws IOException {
        async.setTimeout(0); // no deadline of its own: the connector's idle timeout ends a response nobody reads
        ServletOutputStream out = response.getOutputStream();
        out.setWriteListener(new NonBlockingBody(async, out, pattern, size));
    }

    @Override
    public void onWritePossible() throws IOException {
        while (out.isReady()) {
            if (left == 0) {
                async.complete();
                return;
            }
            int chunk = (int) Math.min(left, pattern.length);
            out.write(pattern, 0, chunk);
            left -= chunk;
        }
    }

    @Override
    public void onError(Throwable failure) {
        async.complete(); // the client left or the idle timeout fired: nobody to tell
    }
}
