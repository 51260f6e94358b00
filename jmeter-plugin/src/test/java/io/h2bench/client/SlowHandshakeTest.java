package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The response timeout is JMeter's: silence after the request, not the time to connect. A new TLS
 * connection that takes longer than the response timeout but less than the connect timeout must
 * succeed (issue 14: the first samples of a cold JMeter failed as "No response" with nothing sent).
 */
class SlowHandshakeTest extends AgainstServer {

    private static final long WAY_TO_SERVER_MILLIS = 1_500;

    @Test
    void shouldSucceedWhenTheHandshakeTakesLongerThanTheResponseTimeoutButNotTheConnectTimeout() throws Exception {
        try (CountingRelay slow = new CountingRelay(server.port(Listener.H2), WAY_TO_SERVER_MILLIS)) {
            URI uri = URI.create("https://127.0.0.1:" + slow.port() + "/small-text.txt");

            ExchangeResult result = user.send(ExchangeRequest.get(uri, ProtocolMode.HTTP_2)
                    .withTimeouts(Duration.ofMillis(5_000), Duration.ofMillis(1_000)));

            assertThat(result.failed()).as(result.failureMessage()).isFalse();
            assertThat(result.status()).isEqualTo(200);
            assertThat(result.connectNanos() / 1_000_000).isGreaterThanOrEqualTo(WAY_TO_SERVER_MILLIS - 50);
        }
    }

    @Test
    void shouldFailAtTheResponseTimeoutWhenNoConnectTimeoutBoundsTheHandshake() throws Exception {
        try (CountingRelay slow = new CountingRelay(server.port(Listener.H2), WAY_TO_SERVER_MILLIS)) {
            URI uri = URI.create("https://127.0.0.1:" + slow.port() + "/small-text.txt");

            ExchangeResult result = user.send(ExchangeRequest.get(uri, ProtocolMode.HTTP_2)
                    .withTimeouts(Duration.ZERO, Duration.ofMillis(1_000)));

            assertThat(result.failed()).isTrue();
            assertThat(result.failureMessage()).contains("within 1000 ms (response timeout");
        }
    }

    /** A connection still opening for a request that gave up: the next request counts only its own wait. */
    @Test
    void shouldNeverReportMoreConnectTimeThanElapsedWhenTheConnectionWasOpenedForAnAbandonedRequest() throws Exception {
        try (CountingRelay slow = new CountingRelay(server.port(Listener.H2), WAY_TO_SERVER_MILLIS)) {
            URI uri = URI.create("https://127.0.0.1:" + slow.port() + "/small-text.txt");
            ExchangeResult abandoned = user.send(ExchangeRequest.get(uri, ProtocolMode.HTTP_2)
                    .withTimeouts(Duration.ofMillis(500), Duration.ofMillis(1_000)));

            ExchangeResult next = user.send(ExchangeRequest.get(uri, ProtocolMode.HTTP_2)
                    .withTimeouts(Duration.ofMillis(5_000), Duration.ofMillis(5_000)));

            assertThat(abandoned.failureMessage()).contains("within 500 ms (connect timeout)");
            assertThat(next.failed()).as(next.failureMessage()).isFalse();
            assertThat(next.connectNanos()).isPositive().isLessThanOrEqualTo(next.elapsedNanos());
        }
    }
}
