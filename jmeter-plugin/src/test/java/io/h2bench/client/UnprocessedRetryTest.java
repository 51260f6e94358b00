package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RFC 9113 6.8: mid-load the server sends GOAWAY with last stream id 1 while a user's requests are
 * on streams 3 to 19 of the same connection. It never processed them, so each is sent once more, on
 * a new connection, and its result spans both tries and says why.
 */
class UnprocessedRetryTest {

    private static final Duration CONNECT = Duration.ofMillis(2_000);
    private static final Duration RESPONSE = Duration.ofMillis(5_000);
    private static final int IN_FLIGHT = 8;

    private LoopbackTestServer server;
    private LowGoAwayHandler handler;
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        handler = new LowGoAwayHandler();
        server = LoopbackTestServer.start(handler);
        user = UserConnections.open();
    }

    @AfterEach
    void stop() throws Exception {
        user.close();
        server.close();
    }

    @Test
    void shouldSendRequestsAboveTheLastStreamIdOnceMoreOnANewConnectionWhenTheServerSendsGoAwayMidLoad() throws Exception {
        ExchangeResult first = user.send(request("/ok"));
        List<CompletableFuture<ExchangeResult>> held = new ArrayList<>();
        for (int i = 0; i < IN_FLIGHT; i++) {
            held.add(user.sendAsync(request("/hold")));
        }
        handler.awaitHeld();
        long beforeGoAway = System.nanoTime();

        held.add(user.sendAsync(request("/goaway")));

        List<String> failures = new ArrayList<>();
        for (CompletableFuture<ExchangeResult> each : held) {
            ExchangeResult result = each.get(10, TimeUnit.SECONDS);
            if (result.failed() || result.connectionId() == first.connectionId() || result.retried() == null) {
                failures.add(result.uri().getPath() + " on connection " + result.connectionId() + ": "
                        + result.failureMessage() + ", retried: " + result.retried());
                continue;
            }
            assertThat(result.retried()).contains("GOAWAY");
            // One sample from the first try's start: it began before the GOAWAY that made it fail.
            assertThat(result.startNanos()).isLessThanOrEqualTo(result.uri().getPath().equals("/goaway")
                    ? System.nanoTime() : beforeGoAway);
            assertThat(result.elapsedNanos()).isGreaterThanOrEqualTo(result.latencyNanos());
        }
        assertThat(failures).as("requests the server never processed, of %d", held.size()).isEmpty();
        assertThat(handler.connections()).as("connections the server saw").isEqualTo(2);
    }

    private ExchangeRequest request(String path) {
        URI uri = URI.create("http://127.0.0.1:" + server.port() + path);
        return ExchangeRequest.get(uri, ProtocolMode.H2C).withTimeouts(CONNECT, RESPONSE);
    }

    /**
     * On the first connection /hold never answers and /goaway sends GOAWAY(last stream 1, NO_ERROR)
     * once every /hold arrived: what a server shutting down or shedding load may send. On any later
     * connection every path answers at once.
     */
    private static final class LowGoAwayHandler extends Handler.Abstract {

        private final CountDownLatch held = new CountDownLatch(IN_FLIGHT);
        private final AtomicReference<Connection> firstConnection = new AtomicReference<>();
        private final List<Connection> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            Connection connection = request.getConnectionMetaData().getConnection();
            firstConnection.compareAndSet(null, connection);
            if (!seen.contains(connection)) {
                seen.add(connection);
            }
            boolean onFirst = firstConnection.get() == connection;
            switch (Request.getPathInContext(request)) {
                case "/hold" -> {
                    if (onFirst) {
                        held.countDown(); // never answered: the GOAWAY says it was not processed
                    } else {
                        answer(response, callback);
                    }
                }
                case "/goaway" -> {
                    if (onFirst) {
                        awaitHeld();
                        byte[] debug = "h2bench test".getBytes(StandardCharsets.US_ASCII);
                        ((HTTP2Connection) connection).getSession().goAway(new GoAwayFrame(1, ErrorCode.NO_ERROR.code, debug), Callback.NOOP);
                    } else {
                        answer(response, callback);
                    }
                }
                default -> answer(response, callback);
            }
            return true;
        }

        void awaitHeld() throws InterruptedException {
            if (!held.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the held requests did not arrive");
            }
        }

        int connections() {
            return seen.size();
        }

        private static void answer(Response response, Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            response.write(true, ByteBuffer.wrap(new byte[1_000]), callback);
        }
    }
}
