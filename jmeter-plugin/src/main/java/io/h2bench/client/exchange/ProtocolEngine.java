package io.h2bench.client.exchange;

import io.h2bench.client.profile.ConnectionProfile;
import java.util.concurrent.CompletableFuture;

/**
 * One virtual user's connections in one protocol stack, behind which {@code UserConnections} puts
 * every protocol it speaks: HTTP/1.1 and HTTP/2 on TCP ({@code TcpEngines}), Netty's
 * QUIC for HTTP/3 ({@code h3.Http3Engine}). An engine keeps its connections per origin across
 * requests until {@link #reset()}; requests may be sent concurrently (a page load).
 */
public interface ProtocolEngine extends AutoCloseable {

    /**
     * Sends on connections made as {@code profile} says. The future always completes normally: a
     * failure comes back as a failed {@link ExchangeResult} with a message a tester understands.
     * Throws {@link IllegalArgumentException} for a request this engine cannot carry at all.
     */
    CompletableFuture<ExchangeResult> send(ExchangeRequest exchange, ConnectionProfile profile);

    /** False once closed, or once the shared machinery under it stopped (JMeter's test end). */
    boolean usable();

    /** Aborts whatever is in flight (JMeter's stop button); the results report {@code reason}. */
    void abortAll(String reason);

    /** Closes the connections: the next request opens new ones, as a new user would. */
    void reset();

    /** Closes the connections and gives back the shared machinery. */
    @Override
    void close();
}
