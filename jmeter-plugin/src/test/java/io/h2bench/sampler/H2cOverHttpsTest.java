package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * H2C and H2C_UPGRADE, HTTP/2 in clear text, asked of an https URL: the scheme wins, as with curl,
 * whose {@code --http2} and {@code --http2-prior-knowledge} both offer h2 by ALPN to an https URL
 * (and HttpClient4 speaks TLS to it too): h2 when the server's ALPN chooses it. When it chooses
 * http/1.1, the Upgrade goes on over it with a note in the message, as a declined Upgrade does;
 * prior knowledge fails saying so, as HTTP_2 set explicitly does (curl goes on over HTTP/1.1 silently).
 * Against the project's server: its h2 listener (ALPN h2, http/1.1) and its h1-tls one (http/1.1 only).
 */
class H2cOverHttpsTest {

    private SamplerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("h2c-over-https");
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void shouldNegotiateH2ByAlpnAsCurlDoesWhenTheH2cUpgradeIsAskedOfAnHttpsUrl() throws Exception {
        fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.H2C_UPGRADE);

        List<SampleResult> ours = List.of(fixture.sampler.sample(), fixture.sampler.sample());
        String curl = curl("--http2", Listener.H2);

        for (SampleResult result : ours) {
            assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
            assertThat(result.getResponseMessage()).isEqualTo("OK");
            assertThat(result.getSamplerData()).contains("Protocol: HTTP/2.0", "ALPN: h2", "Engine: h2-own\n");
        }
        assertThat(ours.get(1).getSamplerData()).contains("(reused)");
        assertThat(curl).isEqualTo("200 2");
    }

    @Test
    void shouldGoOnOverHttp11SayingWhyWhenTheServersAlpnChoosesItForAnHttpsUpgrade() throws Exception {
        fixture.target(Listener.H1_TLS, "/small-text.txt", ProtocolMode.H2C_UPGRADE);

        SampleResult ours = fixture.sampler.sample();
        SampleResult theirs = hc4(Listener.H1_TLS).sample();
        String curl = curl("--http2", Listener.H1_TLS);

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(ours.isSuccessful()).as(ours.getResponseMessage()).isTrue();
        assertThat(ours.getResponseCode()).isEqualTo(theirs.getResponseCode());
        assertThat(ours.getResponseMessage()).isEqualTo(theirs.getResponseMessage()
                + " (h2c Upgrade on an https URL is h2 by ALPN, the server's ALPN chose http/1.1: HTTP/1.1 was used)");
        assertThat(ours.getSamplerData()).contains("Protocol: HTTP/1.1", "ALPN: http/1.1", "Engine: h1-own\n");
        assertThat(curl).isEqualTo("200 1.1");
    }

    @Test
    void shouldTakeH2ByAlpnOrSayWhatTheServerChoseWhenH2cWithPriorKnowledgeIsAskedOfAnHttpsUrl() throws Exception {
        SampleResult h2 = fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.H2C).sample();
        SampleResult http11 = fixture.target(Listener.H1_TLS, "/small-text.txt", ProtocolMode.H2C).sample();
        List<String> curl = List.of(curl("--http2-prior-knowledge", Listener.H2), curl("--http2-prior-knowledge", Listener.H1_TLS));

        assertThat(h2.isSuccessful()).as(h2.getResponseMessage()).isTrue();
        assertThat(h2.getSamplerData()).contains("Protocol: HTTP/2.0", "ALPN: h2", "Engine: h2-own\n");
        assertThat(http11.isSuccessful()).isFalse();
        assertThat(http11.getResponseMessage()).contains("does not offer h2 over ALPN (it chose http/1.1)");
        assertThat(http11.getSamplerData()).contains("ALPN: http/1.1", "Engine: h2-own\n");
        // curl goes on over HTTP/1.1 without a word; a sample never measures another protocol silently.
        assertThat(curl).containsExactly("200 2", "200 1.1");
    }

    private HTTPSamplerBase hc4(Listener listener) {
        HTTPSamplerBase sampler = HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4);
        sampler.setMethod("GET");
        sampler.setProtocol("https");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(fixture.server.port(listener));
        sampler.setPath("/small-text.txt");
        return sampler;
    }

    /** curl's status and HTTP version for the same URL, e.g. "200 2". */
    private String curl(String http2Option, Listener listener) throws Exception {
        Process curl = new ProcessBuilder("curl", "-sk", "-o", "/dev/null", http2Option, "-w", "%{http_code} %{http_version}",
                "https://127.0.0.1:" + fixture.server.port(listener) + "/small-text.txt").redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertThat(curl.waitFor(30, TimeUnit.SECONDS)).as("curl finished").isTrue();
        return out;
    }
}
