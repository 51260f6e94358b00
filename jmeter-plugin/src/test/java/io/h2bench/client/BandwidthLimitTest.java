package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.server.Listener;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * JMeter's {@code httpclient.socket.http(s).cps}: each connection reads and writes at most cps
 * bytes a second. Model: a 44 kB body at 100,000 B/s takes at least 0.44 s on every protocol,
 * TLS records and frames included; a 30 kB request body at least 0.3 s more. Wide upper band:
 * the machine is shared.
 */
class BandwidthLimitTest extends AgainstServer {

    private static final int CPS = 100_000;
    private static final ConnectionProfile LIMITED = new ConnectionProfile(null, null, null, CPS, null);

    @ParameterizedTest
    @CsvSource({"H1, HTTP_1_1", "H1_TLS, HTTP_1_1", "H2, HTTP_2", "H2C, H2C"})
    void shouldReadNoFasterThanTheLimitWhenCpsIsSet(Listener listener, ProtocolMode mode) throws Exception {
        ExchangeRequest request = ExchangeRequest.get(URI.create(server.baseUri(listener) + "/small-text.txt"), mode);

        ExchangeResult result = user.send(request, LIMITED);

        assertThat(result.failureMessage()).isNull();
        long modelNanos = TimeUnit.SECONDS.toNanos(1) * result.receivedBytes() / CPS;
        assertThat(result.elapsedNanos()).isBetween(modelNanos * 9 / 10, modelNanos + TimeUnit.SECONDS.toNanos(3));
    }

    @ParameterizedTest
    @CsvSource({"H1, HTTP_1_1", "H2C, H2C"})
    void shouldWriteNoFasterThanTheLimitWhenCpsIsSet(Listener listener, ProtocolMode mode) throws Exception {
        byte[] body = new byte[30_000];
        ExchangeRequest request = new ExchangeRequest("POST", URI.create(server.baseUri(listener) + "/small-text.txt"),
                List.of(new HeaderField("Content-Type", "application/octet-stream")), body, mode, Duration.ZERO,
                Duration.ZERO, false, true, ExchangeRequest.DEFAULT_MAX_CONNECTIONS, false);

        ExchangeResult result = user.send(request, LIMITED);

        long modelNanos = TimeUnit.SECONDS.toNanos(1) * (result.sentBytes() + result.receivedBytes()) / CPS;
        assertThat(result.status()).isPositive();
        assertThat(result.elapsedNanos()).isBetween(modelNanos * 8 / 10, modelNanos + TimeUnit.SECONDS.toNanos(3));
    }

    @ParameterizedTest
    @CsvSource({"H1, HTTP_1_1", "H2C, H2C"})
    void shouldNotSlowAnotherProfileWhenOneIsLimited(Listener listener, ProtocolMode mode) throws Exception {
        ExchangeRequest request = ExchangeRequest.get(URI.create(server.baseUri(listener) + "/small-text.txt"), mode);
        user.send(request, LIMITED);

        ExchangeResult free = user.send(request);

        assertThat(free.newConnection()).isTrue();
        assertThat(free.elapsedNanos()).isLessThan(TimeUnit.SECONDS.toNanos(1) * free.receivedBytes() / CPS);
    }
}
