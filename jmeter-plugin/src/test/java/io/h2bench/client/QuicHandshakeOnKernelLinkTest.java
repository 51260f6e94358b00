package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sampler's QUIC handshake with the h3 listener behind the kernel link takes the round trip of
 * the protocol: one for the handshake (TLS 1.3 inside it; the listener sends no Retry unless asked),
 * so {@code Connect} is 1 R plus the server's work. With Netty 4.2.18 alone it was a round trip more:
 * Netty noticed the handshake's end only when the server's next datagram came, a round trip after the
 * client's Finished ({@code ConnectAtFinished}). R = 600 ms, so that the server's work (its
 * certificate's signature and a JIT-cold listener: 60 to 270 ms on the busy machine) cannot pass for
 * a round trip.
 */
class QuicHandshakeOnKernelLinkTest {

    private static final long R = 600;
    private static H2BenchServer server;

    @BeforeAll
    static void startServerBehindKernelLink() throws Exception {
        server = KernelLinkServer.start("R 600 ms", Duration.ofMillis(R));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldConnectInTheHandshakesRoundTripWhenOpeningAQuicConnection() throws Exception {
        URI uri = URI.create(server.h3BaseUri() + "/small-text.txt");
        connect(uri); // JIT and Netty's start: the model is about the network, not a cold JVM

        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            millis.add(connect(uri));
        }

        System.out.printf("QUIC connect behind R = %d ms: %s ms%n", R, millis);
        assertThat(millis).allSatisfy(ms -> assertThat(ms).isBetween(R, 2 * R - 1));
    }

    private static long connect(URI uri) throws InterruptedException {
        try (UserConnections user = UserConnections.open()) {
            ExchangeResult result = user.send(ExchangeRequest.get(uri, ProtocolMode.HTTP_3)
                    .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)));
            assertThat(result.failureMessage()).isNull();
            assertThat(result.newConnection()).isTrue();
            return result.connectNanos() / 1_000_000;
        }
    }
}
