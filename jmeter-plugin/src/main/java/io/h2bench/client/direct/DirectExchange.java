package io.h2bench.client.direct;

import io.h2bench.client.connect.OriginConnector;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * An exchange on a connection the sampler drives itself, HTTP/1.1 ({@code Http11Exchange}) or
 * HTTP/2 ({@code Http2Exchange}): what {@link AbstractDirectConnections} needs of either.
 */
public abstract class DirectExchange implements OriginConnector.Waiting {

    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    protected final ExchangeRequest request;
    protected final ExchangeRecorder recorder;
    /** The engine's name its samples carry, set by the connections that send it. */
    private String engine;
    /** The other engine's exchange that carries this one's request on, once ALPN handed it over ({@link AlpnHandover}). */
    private volatile DirectExchange successor;
    /** Its body's wait for a 100 Continue, or null when the request goes whole (set before it is sent). */
    protected volatile ContinueWait continueWait;
    /**
     * The proxy's {@code Proxy-Authorization} for this request, or null: written only where the request
     * goes to the proxy, an absolute-form HTTP/1.1 request, never in HTTP/2 HEADERS, which go to the
     * origin (over h2c, in a CONNECT tunnel, or through the tunnel a proxy made of an h2c Upgrade).
     */
    protected volatile String proxyAuthorization;
    /** A final response came while the body waited for a 100 Continue: the body never went ({@link #finalResponseBegun}). */
    private volatile boolean bodySkipped;

    protected DirectExchange(ExchangeRequest request, ExchangeRecorder recorder) {
        this.request = request;
        this.recorder = recorder;
    }

    @Override
    public final ExchangeRequest request() {
        return request;
    }

    @Override
    public final ExchangeRecorder recorder() {
        return recorder;
    }

    /**
     * Ends the exchange now with {@code failure} (response timeout, the stop button); one handed over
     * to another engine ends there, where its request went on.
     */
    public final void abort(Throwable failure) {
        DirectExchange next = successor;
        if (next != null) {
            next.abort(failure);
        } else {
            abortHere(failure);
        }
    }

    /** {@link #abort} on this engine's connection. */
    protected abstract void abortHere(Throwable failure);

    /** The name of the engine that carried the request in the end (ExchangeResult#engine). */
    public final String engine() {
        DirectExchange next = successor;
        return next != null ? next.engine() : engine;
    }

    final void sentBy(String engineName) {
        engine = engineName;
    }

    /** The request's last byte is written, or never will be ({@link #finalResponseBegun}). */
    protected abstract void requestWritten();

    /** A 100 Continue came: a body that waits for it goes now. */
    public final void continued() {
        ContinueWait wait = continueWait;
        if (wait != null) {
            wait.continued();
        }
    }

    /**
     * A final response began. A body that still waits for a 100 Continue then never goes, as
     * HttpClient4 answers before the body: the request ends unsent ({@link #bodySkipped}).
     */
    protected final void finalResponseBegun() {
        ContinueWait wait = continueWait;
        if (wait != null && wait.finalResponse()) {
            bodySkipped = true;
            requestWritten();
        }
    }

    /** Whether the request ended without its body ({@link #finalResponseBegun}). */
    protected final boolean bodySkipped() {
        return bodySkipped;
    }

    /** The exchange ended: a body that waits for a 100 Continue never goes. */
    protected final void endContinueWait() {
        ContinueWait wait = continueWait;
        if (wait != null) {
            wait.end();
        }
    }

    /** Whether another engine carries this request on ({@link #handedTo}). */
    protected final boolean handedOver() {
        return successor != null;
    }

    /**
     * A body's Content-Type, when the plan sets none, and its Content-Length, when the plan's headers
     * hold none; no Expect without a body (RFC 9110 section 10.1.1).
     */
    protected final void addContentFields(HttpFields.Mutable fields) {
        int length = request.body().length;
        if (length > 0) {
            if (!fields.contains(HttpHeader.CONTENT_TYPE)) {
                fields.add(HttpHeader.CONTENT_TYPE, DEFAULT_CONTENT_TYPE);
            }
            if (!fields.contains(HttpHeader.CONTENT_LENGTH)) {
                fields.add(new HttpField.LongValueHttpField(HttpHeader.CONTENT_LENGTH, length));
            }
        } else {
            fields.remove(HttpHeader.EXPECT);
        }
    }

    /** The request's path, "/" when its URI has none. */
    protected final String path() {
        String path = request.uri().getRawPath();
        return path == null || path.isEmpty() ? "/" : path;
    }

    /** {@code next}, of the engine ALPN chose, carries this request on: with the same recorder, so the same sample. */
    final void handedTo(DirectExchange next) {
        successor = next;
    }
}
