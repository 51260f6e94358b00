package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClientProtocolsTest {

    private H2BenchServer server;
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral());
        user = UserConnections.open();
    }

    @AfterEach
    void stop() {
        user.close();
        server.close();
    }

    private ExchangeResult get(Listener listener, String path, ProtocolMode mode) throws Exception {
        return user.send(ExchangeRequest.get(URI.create(server.baseUri(listener) + path), mode));
    }

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
    void shouldFallBackToHttp11WhenTlsServerLacksH2() throws Exception {
        ExchangeResult result = get(Listener.H1_TLS, "/small-text.txt", ProtocolMode.HTTP_2);

        assertThat(result.failureMessage()).isNull();
        assertThat(result.httpVersion()).isEqualTo("HTTP/1.1");
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
}
