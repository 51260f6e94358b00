package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClientFailuresTest extends AgainstServer {

    private static final Duration CONNECT = Duration.ofMillis(2_000);
    private static final Duration RESPONSE = Duration.ofMillis(500);

    private ExchangeResult get(URI uri, ProtocolMode mode) throws Exception {
        return user.send(ExchangeRequest.get(uri, mode).withTimeouts(CONNECT, RESPONSE));
    }

    @Test
    void shouldFailWithRefusedWhenNothingListens() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ExchangeResult result = get(URI.create("http://127.0.0.1:" + port + "/"), ProtocolMode.HTTP_1_1);

        assertThat(result.failed()).isTrue();
        assertThat(result.failureMessage()).contains("refused").contains(":" + port);
        assertThat(result.status()).isZero();
    }

    @Test
    void shouldFailEveryWaitingRequestOnceWhenEachConnectIsRefused() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        // One connection at most: the others wait for it, and each refused connect is tried again for the next.
        for (ProtocolMode mode : new ProtocolMode[] {ProtocolMode.HTTP_1_1, ProtocolMode.H2C}) {
            ExchangeRequest request = ExchangeRequest.get(URI.create("http://127.0.0.1:" + port + "/"), mode)
                    .withTimeouts(CONNECT, RESPONSE).withMaxConnectionsPerOrigin(1);
            List<CompletableFuture<ExchangeResult>> waiting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                waiting.add(user.sendAsync(request));
            }

            for (CompletableFuture<ExchangeResult> result : waiting) {
                assertThat(result.get(10, TimeUnit.SECONDS).failureMessage()).as("%s", mode).contains("refused");
            }
        }
    }

    @Test
    void shouldFailWithUnknownHostWhenTheNameDoesNotResolve() throws Exception {
        ExchangeResult result = get(URI.create("http://no-such-host.invalid/"), ProtocolMode.HTTP_1_1);

        assertThat(result.failureMessage()).startsWith("Unknown host no-such-host.invalid");
    }

    @Test
    void shouldFailAtTheResponseTimeoutWhenTheServerIsSlow() throws Exception {
        for (Listener listener : new Listener[] {Listener.H1, Listener.H2}) {
            ProtocolMode mode = listener == Listener.H2 ? ProtocolMode.HTTP_2 : ProtocolMode.HTTP_1_1;
            ExchangeResult result = get(URI.create(server.baseUri(listener) + "/option?size=1k&delay=5000"), mode);

            assertThat(result.failed()).isTrue();
            assertThat(result.failureMessage()).contains("within 500 ms (response timeout");
            assertThat(result.elapsedNanos() / 1_000_000).isBetween(450L, 2_500L);
        }
    }

    @Test
    void shouldFailWithOneLineWhenHttp2IsAskedForAndAlpnChoosesHttp11() throws Exception {
        URI uri = URI.create(server.baseUri(Listener.H1_TLS) + "/small-text.txt");

        ExchangeResult first = get(uri, ProtocolMode.HTTP_2);
        ExchangeResult second = get(uri, ProtocolMode.HTTP_2);

        assertThat(first.failed()).isTrue();
        assertThat(first.status()).isZero();
        assertThat(first.failureMessage()).isEqualTo("The server https://127.0.0.1:" + server.port(Listener.H1_TLS)
                + " does not offer h2 over ALPN (it chose http/1.1); pick HTTP/1.1 or 'By scheme' to allow it");
        assertThat(second.failureMessage()).isEqualTo(first.failureMessage());
        assertThat(server.requestsReceived("/small-text.txt")).isZero();
    }

    @Test
    void shouldFailTheTlsHandshakeWhenTheServerSpeaksCleartext() throws Exception {
        URI wrong = URI.create("https://127.0.0.1:" + server.port(Listener.H1) + "/");
        ExchangeResult result = get(wrong, ProtocolMode.HTTP_2);

        assertThat(result.failed()).isTrue();
        assertThat(result.failureMessage()).contains("TLS handshake with https://127.0.0.1:" + server.port(Listener.H1));
    }

    @Test
    void shouldFailWhenH2cIsSpokenToAnHttp11OnlyServer() throws Exception {
        ExchangeResult result = get(URI.create(server.baseUri(Listener.H1) + "/"), ProtocolMode.H2C);

        assertThat(result.failed()).isTrue();
        assertThat(result.elapsedNanos() / 1_000_000).isLessThan(3_000L);
    }
}
