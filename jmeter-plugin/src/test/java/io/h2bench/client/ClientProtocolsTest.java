package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientProtocolsTest extends AgainstServer {

    @Test
    void shouldNegotiateH2WithAlpnWhenHttp2OverTls() throws Exception {
        ExchangeResult result = get(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_2);

        assertThat(result.failureMessage()).isNull();
        assertThat(result.status()).isEqualTo(200);
        assertThat(result.httpVersion()).isEqualTo("HTTP/2.0");
        assertThat(result.alpn()).isEqualTo("h2");
        assertThat(result.statusLine()).isEqualTo("HTTP/2.0 200 OK");
    }

    @Test
    void shouldFallBackToHttp11WhenTlsServerLacksH2AndFallbackIsAllowed() throws Exception {
        URI uri = URI.create(server.baseUri(Listener.H1_TLS) + "/small-text.txt");
        ExchangeResult result = user.send(ExchangeRequest.get(uri, ProtocolMode.HTTP_2).withAlpnFallback(true));

        assertThat(result.failureMessage()).isNull();
        assertThat(result.httpVersion()).isEqualTo("HTTP/1.1");
        assertThat(result.alpn()).isEqualTo("http/1.1");
    }

    @Test
    void shouldSpeakHttp11WhenAskedOverTls() throws Exception {
        ExchangeResult result = get(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_1_1);

        assertThat(result.failureMessage()).isNull();
        assertThat(result.httpVersion()).isEqualTo("HTTP/1.1");
    }

    @Test
    void shouldSpeakHttp11WhenCleartext() throws Exception {
        ExchangeResult result = get(Listener.H1, "/small-text.txt", ProtocolMode.HTTP_1_1);

        assertThat(result.failureMessage()).isNull();
        assertThat(result.httpVersion()).isEqualTo("HTTP/1.1");
        assertThat(result.alpn()).isNull();
        assertThat(result.bodyBytes()).isEqualTo(result.body().length).isGreaterThan(40_000);
    }

    @Test
    void shouldSpeakH2cWhenPriorKnowledge() throws Exception {
        ExchangeResult result = get(Listener.H2C, "/small-text.txt", ProtocolMode.H2C);

        assertThat(result.failureMessage()).isNull();
        assertThat(result.httpVersion()).isEqualTo("HTTP/2.0");
    }

    @Test
    void shouldUpgradeToH2cAndStayThereWhenUpgradeAsked() throws Exception {
        ExchangeResult first = get(Listener.H2C, "/small-text.txt", ProtocolMode.H2C_UPGRADE);
        ExchangeResult second = get(Listener.H2C, "/small-text.txt", ProtocolMode.H2C_UPGRADE);

        assertThat(first.failureMessage()).isNull();
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.httpVersion()).isEqualTo("HTTP/2.0");
        assertThat(second.httpVersion()).isEqualTo("HTTP/2.0");
        assertThat(second.newConnection()).isFalse();
        assertThat(second.connectionId()).isEqualTo(first.connectionId());
    }

    @Test
    void shouldCompleteHeadRequestsAtTheirHeadersWhenOverHttp2() throws Exception {
        for (Listener listener : new Listener[] {Listener.H1, Listener.H2C, Listener.H2}) {
            ProtocolMode mode = listener == Listener.H1 ? ProtocolMode.HTTP_1_1 : listener == Listener.H2C ? ProtocolMode.H2C : ProtocolMode.HTTP_2;
            URI uri = URI.create(server.baseUri(listener) + "/small-text.txt");
            ExchangeRequest head = new ExchangeRequest("HEAD", uri, List.of(), null, mode,
                    Duration.ZERO, Duration.ofSeconds(5), false, true, 6, false);

            ExchangeResult result = user.send(head);

            assertThat(result.failureMessage()).as(listener.id()).isNull();
            assertThat(result.status()).isEqualTo(200);
            assertThat(result.bodyBytes()).isZero();
            assertThat(result.elapsedNanos() / 1_000_000).isLessThan(2_000L);
        }
    }
}
