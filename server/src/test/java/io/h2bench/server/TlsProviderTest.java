package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.eclipse.jetty.server.SslConnectionFactory;
import org.junit.jupiter.api.Test;

/**
 * The TCP TLS listeners run on what the banner names: BoringSSL through Conscrypt by default (issue
 * 42), JSSE with {@code --tls-provider jsse}. A client tells them apart by the TLS 1.3 cipher: BoringSSL
 * takes the client's first choice (as nginx does), JSSE the profile's order (AES-128-GCM first, as Caddy).
 */
class TlsProviderTest {

    /** curl's and JSSE's own order (Chromium offers AES-128-GCM first). */
    private static final String[] AES_256_FIRST = {"TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256"};
    private static final String[] AES_128_FIRST = {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"};

    @Test
    void shouldSayConscryptInTheBannerWhenStartedWithDefaults() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = Main.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0", "--h3-port", "0", "--warm-up", "0", "--", "true");

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("tls: provider conscrypt on h1-tls and h2: Conscrypt (BoringSSL), TLS 1.3 cipher in the client's order, as nginx"
                        + " (--tls-provider jsse: the JDK's TLS, as before)");
    }

    @Test
    void shouldHandshakeOnConscryptWithTheClientsCipherAndH2WhenStartedWithDefaults() throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral())) {
            assertThat(server.tlsProvider()).isEqualTo(TlsProvider.CONSCRYPT);
            assertThat(server.tlsProviderFallbackReason()).isNull();
            for (Listener listener : List.of(Listener.H1_TLS, Listener.H2)) {
                assertThat(contextProvider(server, listener)).as(listener.id()).isEqualTo("Conscrypt");
            }

            Handshake curlLike = handshake(server, Listener.H2, "TLSv1.3", AES_256_FIRST);
            Handshake chromiumLike = handshake(server, Listener.H2, "TLSv1.3", AES_128_FIRST);
            Handshake tls12 = handshake(server, Listener.H2, "TLSv1.2", null);

            assertThat(curlLike).isEqualTo(new Handshake("TLS_AES_256_GCM_SHA384", "h2"));
            assertThat(chromiumLike).isEqualTo(new Handshake("TLS_AES_128_GCM_SHA256", "h2"));
            // TLS 1.2's suites stay in the profile's order, which BoringSSL follows (AES-128-GCM first, as Caddy).
            assertThat(tls12).isEqualTo(new Handshake("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "h2"));
            assertThat(handshake(server, Listener.H1_TLS, "TLSv1.3", AES_256_FIRST)).isEqualTo(new Handshake("TLS_AES_256_GCM_SHA384", "http/1.1"));
        }
    }

    @Test
    void shouldHandshakeOnJsseInTheProfilesOrderWhenJsseIsAsked() throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral().withTlsProvider(TlsProvider.JSSE))) {
            assertThat(server.tlsProvider()).isEqualTo(TlsProvider.JSSE);
            assertThat(contextProvider(server, Listener.H2)).isNotEqualTo("Conscrypt");

            assertThat(handshake(server, Listener.H2, "TLSv1.3", AES_256_FIRST)).isEqualTo(new Handshake("TLS_AES_128_GCM_SHA256", "h2"));
            assertThat(handshake(server, Listener.H1_TLS, "TLSv1.2", null))
                    .isEqualTo(new Handshake("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "http/1.1"));
        }
    }

    @Test
    void shouldNameTheProvidersWhenTheTlsProviderIsUnknown() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = Main.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "--tls-provider", "openssl");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--tls-provider").contains("conscrypt or jsse").contains("openssl");
    }

    private record Handshake(String cipher, String protocol) {
    }

    private static String contextProvider(H2BenchServer server, Listener listener) {
        return server.connector(listener).getConnectionFactory(SslConnectionFactory.class).getSslContextFactory().getSslContext()
                .getProvider().getName();
    }

    /** A full handshake offering ALPN h2 and http/1.1, and TLS 1.3's suites in {@code suites}' order when given. */
    private static Handshake handshake(H2BenchServer server, Listener listener, String protocol, String[] suites) throws Exception {
        try (SSLSocket socket = (SSLSocket) TestClients.trustAll().getSocketFactory().createSocket("127.0.0.1", server.port(listener))) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setProtocols(new String[] {protocol});
            parameters.setApplicationProtocols(new String[] {"h2", "http/1.1"});
            if (suites != null) {
                parameters.setCipherSuites(suites);
            }
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return new Handshake(socket.getSession().getCipherSuite(), socket.getApplicationProtocol());
        }
    }
}
