package io.h2bench.server.objects;

import java.nio.ByteBuffer;

import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * A core handler's response body, written from a shared direct buffer in pieces of up to
 * {@value NonBlockingBody#WRITE} bytes with {@link Response#write} callbacks ({@link NonBlockingBody}
 * says why direct and why that size). Nothing waits on a thread: a client that stops reading leaves
 * the write pending until the connector's idle timeout fails it.
 */
final class DirectBodyWrite extends IteratingCallback {

    private final Response response;
    private final Callback callback;
    private final NonBlockingBody.Repeating source;
    private final long size;
    private long sent;

    /** The first {@code size} bytes of {@code source}; 0 (HEAD) sends the head alone. {@link #iterate()} starts it. */
    DirectBodyWrite(Response response, NonBlockingBody.Repeating source, long size, Callback callback) {
        this.response = response;
        this.callback = callback;
        this.source = source;
        this.size = size;
    }

    @Override
    protected Action process() {
        if (sent == size) {
            return Action.SUCCEEDED; // with no body (size 0, HEAD) the head leaves as the exchange completes
        }
        ByteBuffer piece = source.piece(sent, size);
        sent += piece.remaining();
        response.write(sent == size, piece, this);
        return Action.SCHEDULED;
    }

    @Override
    protected void onCompleteSuccess() {
        callback.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable failure) {
        callback.failed(failure); // the client left or the idle timeout fired: nobody to tell
    }

    @Override
    public InvocationType getInvocationType() {
        // process() only hands a buffer to Jetty: a completed write may run it on the thread that completed it.
        return InvocationType.NON_BLOCKING;
    }
}
