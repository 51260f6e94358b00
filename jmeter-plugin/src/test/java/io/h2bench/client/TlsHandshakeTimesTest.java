package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The TLS handshake as its own part of the connect time (DevTools' "SSL" inside "Initial
 * connection"), on every way the client opens connections: the sampler's own HTTP/1.1 connections,
 * HttpClient's HTTP/2 ones, and QUIC, where the one handshake is all of it.
 */
class TlsHandshakeTimesTest extends AgainstServer {

    private static final long MS = 1_000_000;
    /** How long the relay waits before it connects on to the server: the handshake's first answer waits as long. */
    private static final long WAY_TO_SERVER_MILLIS = 1_000;

    @ParameterizedTest
    @CsvSource({"H1,HTTP_1_1", "H2C,H2C"})
    void shouldReportNoTlsWhenTheConnectionIsClearText(Listener listener, ProtocolMode mode) throws Exception {
        ExchangeResult first = get(listener, "/small-text.txt", mode);

        assertThat(first.newConnection()).isTrue();
        assertThat(first.connectNanos()).isPositive();
        assertThat(first.tlsNanos()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"H1_TLS,HTTP_1_1", "H2,HTTP_2"})
    void shouldSplitConnectIntoTcpAndTlsWhenANewTlsConnectionOpens(Listener listener, ProtocolMode mode) throws Exception {
        ExchangeResult first = get(listener, "/small-text.txt", mode);
        ExchangeResult reused = get(listener, "/small-text.txt", mode);

        assertThat(first.failureMessage()).isNull();
        assertThat(first.newConnection()).isTrue();
        assertThat(first.tlsNanos()).isPositive().isLessThan(first.connectNanos());
        assertThat(reused.newConnection()).isFalse();
        assertThat(reused.tlsNanos()).isZero();
    }

    /**
     * A relay that accepts at once but reaches the server only {@value #WAY_TO_SERVER_MILLIS} ms later:
     * the TCP connect (to the relay) stays quick, the handshake's ClientHello waits for the relay.
     */
    @ParameterizedTest
    @CsvSource({"H1_TLS,HTTP_1_1", "H2,HTTP_2"})
    void shouldChargeASlowHandshakeToTlsNotTcpWhenTheServerAnswersLate(Listener listener, ProtocolMode mode)
            throws Exception {
        try (CountingRelay slow = new CountingRelay(server.port(listener), WAY_TO_SERVER_MILLIS)) {
            URI uri = URI.create("https://127.0.0.1:" + slow.port() + "/small-text.txt");

            ExchangeResult result = user.send(ExchangeRequest.get(uri, mode)
                    .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)));

            assertThat(result.failureMessage()).isNull();
            assertThat(result.tlsNanos() / MS).isBetween(WAY_TO_SERVER_MILLIS - 50, WAY_TO_SERVER_MILLIS + 2_000);
            assertThat((result.connectNanos() - result.tlsNanos()) / MS).as("TCP connect to the relay").isLessThan(500);
        }
    }

    @Test
    void shouldReportTheWholeQuicHandshakeAsTlsWhenHttp3OpensAConnection() throws Exception {
        URI uri = URI.create(server.h3BaseUri() + "/small-text.txt");
        ExchangeRequest request = ExchangeRequest.get(uri, ProtocolMode.HTTP_3).withTimeouts(Duration.ZERO, Duration.ofSeconds(10));

        ExchangeResult first = user.send(request);
        ExchangeResult reused = user.send(request);

        assertThat(first.failureMessage()).isNull();
        assertThat(first.tlsNanos()).isPositive().isEqualTo(first.connectNanos());
        assertThat(reused.tlsNanos()).isZero();
    }
}
