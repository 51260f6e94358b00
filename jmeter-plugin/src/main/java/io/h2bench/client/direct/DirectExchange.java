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

    /** Ends the exchange now with {@code failure} (response timeout, the stop button). */
    public abstract void abort(Throwable failure);
}
