package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What a sampler converted from an HTTP Request does before anyone tunes it, and a refused connect. */
class ParityDefaultsTest extends ParityTestBase {

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldNotClaimAReusedConnectionWhenTheConnectFails(ProtocolMode mode) throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        SamplerPair.Results results = pair.sample(mode, "/echo", sampler -> sampler.setPort(closedPort));

        assertThat(results.httpClient4().isSuccessful()).isFalse();
        assertThat(results.h2bench().isSuccessful()).isFalse();
        assertThat(results.h2bench().getResponseCode()).contains("ConnectException");
        assertThat(results.h2bench().getSamplerData())
                .contains("Connection: none (no connection was established)")
                .doesNotContain("(reused)");
    }

    @Test
    void shouldSpeakHttp11OverHttpWhenNoVersionIsSet() {
        HTTPSampleResult result = sampleWithoutVersion(false);

        assertThat(result.getResponseHeaders()).startsWith("HTTP/1.1 200");
        assertThat(pair.h2bench().getHttpVersion()).isEqualTo(ProtocolMode.HTTP_1_1);
    }

    @Test
    void shouldSpeakHttp2OverHttpsWhenNoVersionIsSet() {
        HTTPSampleResult result = sampleWithoutVersion(true);

        assertThat(result.getResponseHeaders()).startsWith("HTTP/2.0 200");
        assertThat(pair.h2bench().getHttpVersion()).isEqualTo(ProtocolMode.HTTP_2);
    }

    /** An h2bench sampler as a hand-edited plan leaves it: an HTTP Request's fields, no h2bench ones. */
    private HTTPSampleResult sampleWithoutVersion(boolean tls) {
        Http2Sampler sampler = pair.h2bench();
        sampler.setMethod("GET");
        sampler.setProtocol(tls ? "https" : "http");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(pair.peer.port(tls));
        sampler.setPath("/echo");
        sampler.removeProperty(Http2Sampler.HTTP_VERSION);
        return (HTTPSampleResult) sampler.sample();
    }
}
