package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The user's thread reading its own h2c responses ({@link CallerReads} on {@link Http2FrameConnection}):
 * what must still hold when no selector watches the socket, against a Jetty server's h2c. The first
 * exchange of a connection is the selector's (it is sent once the connection opens); the following
 * ones are read by the thread that waits for them, and between them no one reads.
 */
class CallerReadsHttp2Test {

    private static final Duration CONNECT = Duration.ofMillis(2_000);
    private static final Duration LONG = Duration.ofSeconds(10);
    /** Long enough for two exchanges back to back on a busy machine; the server then closes the idle connection. */
    private static final Duration SERVER_IDLE = Duration.ofMillis(1_500);

    private CleartextTestServer server;
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        server = CleartextTestServer.start(new SilentOrAnswering(), SERVER_IDLE);
        user = UserConnections.open();
    }

    @AfterEach
    void stop() throws Exception {
        user.close();
        server.close();
    }

    @Test
    void shouldEndAtTheResponseTimeoutAndKeepTheConnectionWhenTheServerNeverAnswersTheWaitingThread() {
        ExchangeResult[] results = assertTimeoutPreemptively(LONG, () -> new ExchangeResult[] {
            get("/ok", LONG), get("/silent", Duration.ofMillis(500)), get("/ok", LONG)});

        assertThat(results[0].failureMessage()).isNull();
        assertThat(results[1].failed()).isTrue();
        assertThat(results[1].failureMessage()).contains("within 500 ms (response timeout");
        assertThat(results[1].elapsedNanos() / 1_000_000).isBetween(450L, 3_000L);
        // Only the stream was reset: the next request reuses the connection.
        assertThat(results[2].failureMessage()).isNull();
        assertThat(results[2].connectionId()).isEqualTo(results[0].connectionId());
    }

    @Test
    void shouldSendOnANewConnectionWithoutARetryWhenTheServerClosedTheIdleOne() throws Exception {
        ExchangeResult first = get("/ok", LONG);
        ExchangeResult second = get("/ok", LONG);
        assertThat(second.connectionId()).isEqualTo(first.connectionId());
        // The server's idle timeout: GOAWAY, then the close, while no one on the client reads.
        assertThat(server.awaitNoOpenConnection(SERVER_IDLE.multipliedBy(4))).isTrue();

        ExchangeResult third = get("/ok", LONG);

        // Read before the request goes out: it goes to a new connection at once, not sent on the
        // closed one first and then again.
        assertThat(third.failureMessage()).isNull();
        assertThat(third.retried()).isNull();
        assertThat(third.connectionId()).isNotEqualTo(first.connectionId());
    }

    private ExchangeResult get(String path, Duration responseTimeout) throws InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + server.port() + path);
        return user.send(ExchangeRequest.get(uri, ProtocolMode.H2C).withTimeouts(CONNECT, responseTimeout));
    }

    /** /silent never answers (its stream stays open until the client resets it); anything else gets a short text. */
    private static final class SilentOrAnswering extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (!"/silent".equals(request.getHttpURI().getPath())) {
                response.write(true, ByteBuffer.wrap("ok".getBytes(StandardCharsets.US_ASCII)), callback);
            }
            return true;
        }
    }
}
