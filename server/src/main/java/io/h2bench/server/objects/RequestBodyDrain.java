package io.h2bench.server.objects;

import java.util.function.LongConsumer;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * Reads a request's body to its end without blocking, then answers: no thread waits for a body that
 * is slow to come or never comes (the connector's idle timeout ends that exchange). Reading it first
 * lets HTTP/2 see a body that breaks its content-length while the stream is open, so the client gets
 * the stream error it has earned instead of a response ({@link BodyFirstFilter}, the servlets' way).
 */
final class RequestBodyDrain {

    private final Request request;
    private final Callback callback;
    private final LongConsumer respond;
    private long received;

    private RequestBodyDrain(Request request, Callback callback, LongConsumer respond) {
        this.request = request;
        this.callback = callback;
        this.respond = respond;
    }

    /** Calls {@code respond} with the body's length once it has all arrived, or fails {@code callback}. */
    static void thenRespond(Request request, Callback callback, LongConsumer respond) {
        new RequestBodyDrain(request, callback, respond).read();
    }

    /** Reads what has arrived; called again by Jetty when more does. */
    private void read() {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this::read);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                callback.failed(chunk.getFailure());
                return;
            }
            received += chunk.remaining();
            chunk.release();
            if (chunk.isLast()) {
                respond.accept(received);
                return;
            }
        }
    }
}
