package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import java.nio.file.Path;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.apache.jmeter.util.SSLManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client certificates from {@code javax.net.ssl.keyStore}, as JMeter's SSLManager reads them,
 * against a server that requires one: HttpClient4 and the h2bench sampler (HTTP/1.1 and h2 over
 * TLS) both get in with it; the h2bench sampler is refused without it, with a message saying so.
 */
class ClientCertificateParityTest {

    @TempDir
    Path dir;
    private ClientCertificateServer server;
    private Http2Sampler h2bench;

    @BeforeEach
    void start() throws Exception {
        InProcessJMeter.init();
        Path keyStore = dir.resolve("client.p12");
        ClientCertificateServer.makeKeyStore(keyStore);
        server = new ClientCertificateServer(keyStore);
        System.setProperty("javax.net.ssl.keyStore", keyStore.toString());
        System.setProperty("javax.net.ssl.keyStorePassword", ClientCertificateServer.PASSWORD);
        SSLManager.reset();
        h2bench = new Http2Sampler();
        h2bench.setName("h2bench");
    }

    @AfterEach
    void stop() throws Exception {
        System.clearProperty("javax.net.ssl.keyStore");
        System.clearProperty("javax.net.ssl.keyStorePassword");
        SSLManager.reset();
        h2bench.threadFinished();
        h2bench.testEnded();
        server.close();
    }

    @Test
    void shouldBeAcceptedLikeHttpClient4WhenTheKeyStoreHoldsTheCertificate() {
        HTTPSampleResult theirs = (HTTPSampleResult) ClientCertificateServer.aim(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4),
                server.h1Port()).sample();
        HTTPSampleResult h1 = sample(ProtocolMode.HTTP_1_1, server.h1Port());
        h2bench.threadFinished();
        HTTPSampleResult h2 = sample(ProtocolMode.HTTP_2, server.h2Port());

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(h1.isSuccessful()).as(h1.getResponseMessage()).isTrue();
        assertThat(h2.isSuccessful()).as(h2.getResponseMessage()).isTrue();
        assertThat(h2.getSamplerData()).contains("ALPN: h2");
        assertThat(h2.getResponseDataAsString()).isEqualTo(theirs.getResponseDataAsString());
    }

    @Test
    void shouldFailTheHandshakeWhenNoKeyStoreIsSet() {
        System.clearProperty("javax.net.ssl.keyStore");

        HTTPSampleResult ours = sample(ProtocolMode.HTTP_1_1, server.h1Port());

        assertThat(ours.isSuccessful()).isFalse();
        assertThat(ours.getResponseCode()).startsWith("Non HTTP response code");
    }

    private HTTPSampleResult sample(ProtocolMode mode, int port) {
        ClientCertificateServer.aim(h2bench, port);
        h2bench.setHttpVersion(mode);
        return (HTTPSampleResult) h2bench.sample();
    }
}
