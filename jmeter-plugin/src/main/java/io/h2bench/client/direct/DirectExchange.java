package io.h2bench.client.direct;

import io.h2bench.client.connect.OriginConnector;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;

/**
 * An exchange on a connection the sampler drives itself, HTTP/1.1 ({@code Http11Exchange}) or
 * HTTP/2 ({@code Http2Exchange}): what {@link AbstractDirectConnections} needs of either.
 */
public abstract class DirectExchange implements OriginConnector.Waiting {

    protected final ExchangeRequest request;
    protected final ExchangeRecorder recorder;
    /** The engine's name its samples carry, set by the connections that send it. */
    private String engine;
    /** The other engine's exchange that carries this one's request on, once ALPN handed it over ({@link AlpnHandover}). */
    private volatile DirectExchange successor;
    /** Its body's wait for a 100 Continue, or null when the request goes whole (set before it is sent). */
    protected volatile ContinueWait continueWait;

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

    /** Whether another engine carries this request on ({@link #handedTo}). */
    protected final boolean handedOver() {
        return successor != null;
    }

    /** {@code next}, of the engine ALPN chose, carries this request on: with the same recorder, so the same sample. */
    final void handedTo(DirectExchange next) {
        successor = next;
    }
}
