package io.h2bench.client.connect;

import java.nio.channels.ClosedChannelException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.client.Destination;
import org.eclipse.jetty.client.transport.HttpExchange;
import org.eclipse.jetty.client.transport.SendFailure;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.RetryableStreamException;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.transport.internal.HttpChannelOverHTTP2;
import org.eclipse.jetty.http2.client.transport.internal.HttpConnectionOverHTTP2;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;

/**
 * Jetty's HTTP/2 client connection, minus two races of Jetty 12.1.14: one closes it under a pushed
 * page, the other lets a request go out on a session that has already ended.
 * <p>
 * Pushes: Jetty 12.1.14's {@code release(channel)} hands the connection back to the pool for every channel
 * that ends, also for the channels of pushed streams, which never took a slot from the pool. Each
 * push thus gives back the slot of the page's own request. When two pushes end at once while that
 * request is in flight, both see the connection in use, the first gives the slot back, the second
 * finds none left: the pool refuses, and {@code HttpDestination} closes the connection, failing the
 * page with an {@code AsynchronousCloseException} (a {@code ClosedChannelException}) and sending
 * GOAWAY(PROTOCOL_ERROR) on the pushed HEADERS that follow. Seen about once in 60 pushed loads of
 * {@code /articles?count=25} (issue 14). Jetty 12.0 released only the pool's own channels; so does
 * this class: a pushed channel is destroyed and the pool is left alone.
 * <p>
 * Ended sessions: when the session ends by a failure of its own (a write that fails because the server
 * closed the connection, the session stopped as its end point closes), {@code HTTP2Session} fails its
 * streams first and tells the connection last ({@code HTTPSessionListenerPromise.onFailure}/{@code onClose}),
 * and only then does the connection leave the pool. A user whose request just failed sends its next
 * one at once, and the pool gave it this connection, on which Jetty's {@code send} makes no check: the
 * new request failed with the session's failure ("IOException: no_error/stop", seed 004 after
 * GOAWAY(ENHANCE_YOUR_CALM)). Here a request that finds the session closed takes the connection out of
 * the pool, as Jetty's own GOAWAY handling does, and is sent again on another connection.
 * <p>
 * GOAWAY: the streams above its last stream id were never processed (RFC 9113 6.8) and Jetty fails
 * them with a {@link RetryableStreamException}, which {@code UnprocessedRequests} sends again. But the
 * first of them to end releases its channel, the pool closes the connection, and the close aborts the
 * others with a plain {@code ClosedChannelException} before their own failure arrives (1 of 9 streams
 * in {@code UnprocessedRetryTest}). Here the GOAWAY, as it arrives, first fails every such stream as
 * retryable, so that the close finds them failed already; and so are the requests given this
 * connection whose stream is not open yet, which Jetty's session would fail with a plain
 * "session closed" (2 of 120 second requests after Apache httpd's h2c Upgrade, {@code ApacheH2cUpgradeTest}). Their
 * second tries, sent at once, must not come back here: the session says it is closed only once the
 * GOAWAY has been handled, so {@code goneAway()} tells them sooner.
 * <p>
 * REFUSED_STREAM: the server refused a request's stream before processing it (RFC 9113 8.7), and
 * {@code UnprocessedRequests} sends it once more, on a new connection: as the RST_STREAM arrives,
 * before the stream fails, this connection leaves the pool (the retry and the user's next requests
 * open another) and shuts down gracefully, ending once the streams under way on it have.
 */
public class PushSafeConnectionOverHTTP2 extends HttpConnectionOverHTTP2 {

    /** Channels that carry an exchange taken from the pool (requests, not pushes). */
    private final Set<HttpChannelOverHTTP2> pooled = ConcurrentHashMap.newKeySet();
    /** The last stream id of the GOAWAY received, or MAX_VALUE before one. */
    private volatile int goAwayLastStreamId = Integer.MAX_VALUE;

    PushSafeConnectionOverHTTP2(Destination destination, Session session, HTTP2Connection connection) {
        super(destination, session, connection);
        connection.getSession().addEventListener(new HTTP2Session.FrameListener() {
            @Override
            public void onIncomingFrame(Session ignored, Frame frame) {
                if (frame instanceof ResetFrame reset && reset.getError() == ErrorCode.REFUSED_STREAM_ERROR.code
                        && reset.getStreamId() % 2 == 1) { // a stream the client opened: a request, not a push
                    retire();
                } else if (frame instanceof GoAwayFrame goAway && !goAway.isGraceful()) {
                    goAwayLastStreamId = goAway.getLastStreamId();
                    // Out of the pool first, as Jetty's GOAWAY handling does a moment later: second tries need another connection.
                    getHttpDestination().remove(PushSafeConnectionOverHTTP2.this);
                    failUnprocessed();
                }
            }
        });
    }

    /**
     * Whether the server's GOAWAY has arrived: no new stream may go on this connection. Jetty's session
     * says it is closed only once the GOAWAY's frame listeners have run, and this class fails the
     * unprocessed requests from its listener, so a second try sent at once would still find the session
     * open and go out on it, above the last stream id, to fail the same way.
     */
    private boolean goneAway() {
        return goAwayLastStreamId != Integer.MAX_VALUE;
    }

    @Override
    public void close() {
        // The first unprocessed stream to fail may close the connection while the others are still being failed.
        failUnprocessed();
        super.close();
    }

    /** Out of the pool, so that nothing new is sent here, and closed once the streams under way have ended. */
    private void retire() {
        getHttpDestination().remove(this);
        getSession().shutdown();
    }

    /**
     * Fails the requests on streams above the GOAWAY's last stream id as Jetty does, before anything else
     * can, and those whose stream is not open yet: they have written nothing, and the session takes no
     * new stream after a GOAWAY.
     */
    private void failUnprocessed() {
        int lastStreamId = goAwayLastStreamId;
        if (lastStreamId == Integer.MAX_VALUE) {
            return;
        }
        for (HttpChannelOverHTTP2 channel : pooled) {
            Stream stream = channel.getStream();
            HttpExchange exchange = channel.getHttpExchange();
            if (exchange != null && (stream == null || stream.getId() > lastStreamId)) {
                exchange.getRequest().abort(new RetryableStreamException());
            }
        }
    }

    @Override
    public SendFailure send(HttpExchange exchange) {
        if (getSession().isClosed() || goneAway()) {
            // Out of the pool first, so that the retry (Jetty's, for a retryable failure) opens a new connection.
            getHttpDestination().remove(this);
            return new SendFailure(new ClosedChannelException(), true);
        }
        return super.send(exchange);
    }

    @Override
    protected HttpChannelOverHTTP2 acquireHttpChannel() {
        HttpChannelOverHTTP2 channel = super.acquireHttpChannel();
        // Null once the connection is closed: Jetty then fails the send as retryable.
        if (channel != null) {
            pooled.add(channel);
        }
        return channel;
    }

    @Override
    protected void release(HttpChannelOverHTTP2 channel) {
        if (pooled.remove(channel)) {
            super.release(channel);
        } else {
            // A pushed stream's channel (HttpReceiverOverHTTP2.onPush makes it with newHttpChannel()).
            channel.destroy();
        }
    }
}
