package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sampler's proxy fields, beside JMeter's HttpClient4 sampler, through a real squid: plain
 * HTTP as absolute-form requests, HTTPS (HTTP/1.1 and h2) through CONNECT, Basic proxy
 * authentication answered on the 407 challenge. Squid's access log shows what went through it.
 */
class ProxyParityTest {

    private SamplerFixture fixture;
    private SquidProxy squid;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("h2bench");
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
        if (squid != null) {
            squid.close();
        }
    }

    @Test
    void shouldGoThroughTheProxyWhenTheSamplerNamesOneOverHttp() throws Exception {
        squid = SquidProxy.start(null, null);

        HTTPSampleResult theirs = sample(hc4(Listener.H1), null);
        HTTPSampleResult ours = sample(h2bench(Listener.H1, ProtocolMode.HTTP_1_1), null);

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(ours.isSuccessful()).as(ours.getResponseMessage()).isTrue();
        assertThat(squid.awaitLines(" GET http://127.0.0.1:", 2)).isEqualTo(2);
    }

    @Test
    void shouldTunnelThroughConnectWhenTheTargetIsHttps() throws Exception {
        squid = SquidProxy.start(null, null);

        HTTPSamplerBase hc4 = hc4(Listener.H1_TLS);
        HTTPSampleResult theirs = sample(hc4, null);
        HTTPSampleResult h1 = sample(h2bench(Listener.H1_TLS, ProtocolMode.HTTP_1_1), null);
        fixture.sampler.threadFinished();
        HTTPSampleResult h2 = sample(h2bench(Listener.H2, ProtocolMode.HTTP_2), null);
        fixture.sampler.threadFinished();
        hc4.threadFinished();

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(h1.isSuccessful()).as(h1.getResponseMessage()).isTrue();
        assertThat(h2.isSuccessful()).as(h2.getResponseMessage()).isTrue();
        assertThat(h2.getSamplerData()).contains("ALPN: h2");
        // squid logs a tunnel when it closes
        assertThat(squid.awaitLines(" CONNECT 127.0.0.1:", 3)).isEqualTo(3);
    }

    @Test
    void shouldSayWhyWhenH2cWithPriorKnowledgeIsAskedToGoThroughAProxy() throws Exception {
        squid = SquidProxy.start(null, null);

        HTTPSampleResult ours = sample(h2bench(Listener.H2C, ProtocolMode.H2C), null);

        assertThat(ours.isSuccessful()).isFalse();
        assertThat(ours.getResponseMessage()).contains("h2c", "cannot go through an HTTP proxy");
        assertThat(squid.accessLog()).doesNotContain("PRI", "GET");
    }

    @Test
    void shouldAnswerTheProxysChallengeWhenItAsksForCredentials() throws Exception {
        squid = SquidProxy.start("tester", "s3cret");

        HTTPSampleResult theirs = sample(hc4(Listener.H1_TLS), "s3cret");
        HTTPSampleResult ours = sample(h2bench(Listener.H1_TLS, ProtocolMode.HTTP_1_1), "s3cret");
        HTTPSampleResult plain = sample(h2bench(Listener.H1, ProtocolMode.HTTP_1_1), "s3cret");

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(ours.isSuccessful()).as(ours.getResponseMessage()).isTrue();
        assertThat(plain.isSuccessful()).as(plain.getResponseMessage()).isTrue();
        assertThat(squid.accessLog()).contains(" tester ");
    }

    @Test
    void shouldGetTheProxysRefusalWhenThePasswordIsWrong() throws Exception {
        squid = SquidProxy.start("tester", "s3cret");

        HTTPSampleResult theirs = sample(hc4(Listener.H1), "wrong");
        HTTPSampleResult ours = sample(h2bench(Listener.H1, ProtocolMode.HTTP_1_1), "wrong");

        assertThat(theirs.getResponseCode()).isEqualTo("407");
        assertThat(ours.getResponseCode()).isEqualTo(theirs.getResponseCode());
    }

    private HTTPSamplerBase hc4(Listener listener) {
        HTTPSamplerBase sampler = HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4);
        sampler.setMethod("GET");
        sampler.setProtocol(listener.secure() ? "https" : "http");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(fixture.server.port(listener));
        sampler.setPath("/small-text.txt");
        return sampler;
    }

    private HTTPSamplerBase h2bench(Listener listener, ProtocolMode mode) {
        return fixture.target(listener, "/small-text.txt", mode);
    }

    private HTTPSampleResult sample(HTTPSamplerBase sampler, String password) {
        sampler.setProperty(HTTPSamplerBase.PROXYHOST, "127.0.0.1");
        sampler.setProperty(HTTPSamplerBase.PROXYPORT, squid.port());
        if (password != null) {
            sampler.setProperty(HTTPSamplerBase.PROXYUSER, "tester");
            sampler.setProperty(HTTPSamplerBase.PROXYPASS, password);
        }
        return (HTTPSampleResult) sampler.sample();
    }
}
