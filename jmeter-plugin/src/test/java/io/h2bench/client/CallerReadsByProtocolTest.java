package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.h2bench.client.direct.CallerReads;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The user's thread reading its own responses ({@link CallerReads}) on h2c, on h2 and on HTTP/1.1 over
 * TLS, against a Jetty server: what must still hold when no selector watches the socket. The first
 * exchange of a connection is the selector's (it is sent once the connection opens); the following
 * ones are read by the thread that waits for them, and between them no one reads.
 * {@link CallerReadsTest} has plain HTTP/1.1's own cases.
 */
class CallerReadsByProtocolTest {

    private static final Duration CONNECT = Duration.ofMillis(2_000);
    private static final Duration LONG = Duration.ofSeconds(10);
    /** Long enough for two exchanges back to back on a busy machine; the server then closes the idle connection. */
    private static final Duration SERVER_IDLE = Duration.ofMillis(1_500);

    /** A protocol the waiting thread reads, and where the test server serves it. */
    enum Variant {
        H2C("http", ProtocolMode.H2C),
        H2("https", ProtocolMode.HTTP_2),
        HTTP_1_1_TLS("https", ProtocolMode.HTTP_1_1);

        final String scheme;
        final ProtocolMode mode;

        Variant(String scheme, ProtocolMode mode) {
            this.scheme = scheme;
            this.mode = mode;
        }
    }

    @TempDir
    Path tlsDir;
    private LoopbackTestServer server;
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        server = LoopbackTestServer.start(new SilentOrAnswering(), SERVER_IDLE, tlsDir);
        user = UserConnections.open();
    }

    @AfterEach
    void stop() throws Exception {
        user.close();
        server.close();
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void shouldEndAtTheResponseTimeoutWhenTheServerNeverAnswersTheWaitingThread(Variant variant) {
        ExchangeResult[] results = assertTimeoutPreemptively(LONG, () -> new ExchangeResult[] {
            get(variant, "/ok", LONG), get(variant, "/silent", Duration.ofMillis(500)), get(variant, "/ok", LONG)});

        assertThat(results[0].failureMessage()).isNull();
        assertThat(results[1].failed()).isTrue();
        assertThat(results[1].failureMessage()).contains("within 500 ms (response timeout");
        assertThat(results[1].elapsedNanos() / 1_000_000).isBetween(450L, 3_000L);
        assertThat(results[2].failureMessage()).isNull();
        if (variant != Variant.HTTP_1_1_TLS) {
            // Only the stream was reset: the next request reuses the connection (HTTP/1.1 closes it).
            assertThat(results[2].connectionId()).isEqualTo(results[0].connectionId());
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void shouldSendOnANewConnectionWithoutARetryWhenTheServerClosedTheIdleOne(Variant variant) throws Exception {
        ExchangeResult first = get(variant, "/ok", LONG);
        ExchangeResult second = get(variant, "/ok", LONG);
        assertThat(second.connectionId()).isEqualTo(first.connectionId());
        // The server's idle timeout: GOAWAY (HTTP/2), close_notify (TLS), then the close, while no one on the client reads.
        assertThat(server.awaitNoOpenConnection(SERVER_IDLE.multipliedBy(4))).isTrue();

        ExchangeResult third = get(variant, "/ok", LONG);

        // Read before the request goes out: it goes to a new connection at once, not sent on the
        // closed one first and then again.
        assertThat(third.failureMessage()).isNull();
        assertThat(third.retried()).isNull();
        assertThat(third.connectionId()).isNotEqualTo(first.connectionId());
    }

    private ExchangeResult get(Variant variant, String path, Duration responseTimeout) throws InterruptedException {
        int port = variant.scheme.equals("https") ? server.securePort() : server.port();
        URI uri = URI.create(variant.scheme + "://127.0.0.1:" + port + path);
        return user.send(ExchangeRequest.get(uri, variant.mode).withTimeouts(CONNECT, responseTimeout));
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
