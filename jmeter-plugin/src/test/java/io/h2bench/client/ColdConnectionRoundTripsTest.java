package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.netem.LinkProfile;
import java.net.URI;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The first request on a new connection, through the server's network emulation with a round trip
 * R = 200 ms, costs what the protocol needs and no more, as in a browser:
 * <ul>
 *   <li>h1 and h2c (prior knowledge): TCP (1 R) + the request (1 R) = 2 R;</li>
 *   <li>h1-tls and h2: TCP (1 R) + TLS 1.3 (1 R) + the request (1 R) = 3 R.</li>
 * </ul>
 * Over HTTP/2 the first request goes out with the client preface, before the server's SETTINGS
 * (RFC 9113 section 3.4); waiting for them, as Jetty's client does by default, adds 1 R.
 */
class ColdConnectionRoundTripsTest {

    private static final long R = 200;

    private static H2BenchServer server;

    @BeforeAll
    static void startServerBehindEmulatedLink() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral()
                .withNetwork(LinkProfile.ideal().withRtt(Duration.ofMillis(R))));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @ParameterizedTest
    @CsvSource({"H1,HTTP_1_1,2", "H1_TLS,HTTP_1_1,3", "H2,HTTP_2,3", "H2C,H2C,2"})
    void shouldCostTheProtocolsRoundTripsWhenTheRequestOpensTheConnection(
            Listener listener, ProtocolMode mode, int roundTrips) throws Exception {
        URI uri = URI.create(server.baseUri(listener) + "/small-text.txt");
        coldGet(uri, mode); // warms the JVM (TLS, parsers) so that the measured ones show the network

        // The fastest of three: the model is a floor that CPU noise (TLS in a busy JVM) only adds to.
        ExchangeResult cold = Stream.of(coldGet(uri, mode), coldGet(uri, mode), coldGet(uri, mode))
                .min(Comparator.comparingLong(ExchangeResult::elapsedNanos)).orElseThrow();

        assertThat(cold.failureMessage()).isNull();
        assertThat(cold.newConnection()).isTrue();
        assertThat(millis(cold.elapsedNanos())).as("elapsed ms").isBetween(roundTrips * R - R / 5, roundTrips * R + 7 * R / 10);
        // Sent as soon as the connection is usable (TCP, TLS), not a round trip later.
        assertThat(millis(cold.queuedNanos() - cold.connectNanos())).as("queued after connect, ms").isLessThan(R / 2);
    }

    @Test
    void shouldHoldFurtherRequestsUntilTheServersSettingsWhenTheConnectionIsNew() throws Exception {
        URI base = server.baseUri(Listener.H2C);
        coldGet(URI.create(base + "/style.css"), ProtocolMode.H2C);
        try (UserConnections user = UserConnections.open()) {
            // The slow one goes first, with the preface; the others wait for the server's SETTINGS
            // (at 2 R), not for the slow response (at 2 R + 600 ms).
            CompletableFuture<ExchangeResult> slow = user.sendAsync(
                    ExchangeRequest.get(URI.create(base + "/option?size=1k&delay=600"), ProtocolMode.H2C));
            List<CompletableFuture<ExchangeResult>> burst = List.of(
                    user.sendAsync(ExchangeRequest.get(URI.create(base + "/style.css"), ProtocolMode.H2C)),
                    user.sendAsync(ExchangeRequest.get(URI.create(base + "/img1.jpeg"), ProtocolMode.H2C)));

            ExchangeResult first = slow.get();
            assertThat(first.failureMessage()).isNull();
            assertThat(millis(first.queuedNanos())).as("first queued ms").isLessThan(R);
            assertThat(millis(first.elapsedNanos())).as("slow elapsed ms").isGreaterThanOrEqualTo(2 * R + 600);
            for (CompletableFuture<ExchangeResult> pending : burst) {
                ExchangeResult next = pending.get();
                assertThat(next.failureMessage()).isNull();
                assertThat(next.connectionId()).isEqualTo(first.connectionId());
                assertThat(millis(next.queuedNanos())).as("queued until SETTINGS, ms").isBetween(2 * R - R / 5, 2 * R + R / 2);
                assertThat(millis(next.elapsedNanos())).as("elapsed ms").isBetween(3 * R - R / 5, 3 * R + R / 2);
                assertThat(next.elapsedNanos()).as("done before the slow one").isLessThan(first.elapsedNanos());
            }
        }
    }

    /** One GET as a brand-new user, so on a connection of its own. */
    private static ExchangeResult coldGet(URI uri, ProtocolMode mode) throws InterruptedException {
        try (UserConnections user = UserConnections.open()) {
            return user.send(ExchangeRequest.get(uri, mode));
        }
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
