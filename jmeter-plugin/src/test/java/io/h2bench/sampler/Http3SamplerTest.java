package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.util.Arrays;
import java.util.List;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sampler's HTTP version choices "HTTP/3" and "HTTP/3 by Alt-Svc" as a JMeter thread runs them. */
class Http3SamplerTest {

    private SamplerFixture fixture;
    private Http2Sampler sampler;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("h3");
        sampler = fixture.sampler;
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void shouldLoadThePageAndItsSixteenResourcesOverHttp3WhenHttp3IsChosen() {
        http3("/").setImageParser(true);

        SampleResult page = sampler.sample();

        List<SampleResult> parts = Arrays.asList(page.getSubResults());
        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(parts).hasSize(17).allSatisfy(part -> {
            assertThat(part.isSuccessful()).as(part.getSampleLabel()).isTrue();
            assertThat(part.getResponseHeaders()).startsWith("HTTP/3 200");
            assertThat(part.getLatency()).isLessThanOrEqualTo(part.getTime());
        });
        assertThat(parts.get(0).getConnectTime()).isPositive();
        assertThat(page.getBytesAsLong()).isEqualTo(parts.stream().mapToLong(SampleResult::getBytesAsLong).sum());
        assertThat(page.getBodySizeAsLong()).isGreaterThan(390_000);
        // nothing reached the TCP listeners
        assertThat(fixture.server.connectionsAccepted(Listener.H2)).isZero();
    }

    @Test
    void shouldAgreeOnRfc9114sH3WithTheServerAsABrowserDoes() {
        http3("/small-text.txt");

        SampleResult sample = sampler.sample();

        // Netty's default list offers the drafts h3-29 to h3-32 first: both ends agreed on h3-29
        assertThat(sample.isSuccessful()).as(sample.getResponseMessage()).isTrue();
        assertThat(sample.getSamplerData()).contains("ALPN: h3\n");
    }

    @Test
    void shouldGoOverHttp2FirstThenHttp3WhenChosenByAltSvc() {
        fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_3_ALT_SVC);

        SampleResult first = sampler.sample();
        SampleResult second = sampler.sample();

        assertThat(first.getResponseHeaders()).startsWith("HTTP/2.0 200");
        assertThat(first.getResponseMessage()).isEqualTo("OK (HTTP/3 by Alt-Svc, no h3 advertised by this origin yet: HTTP/2.0 was used)");
        assertThat(second.getResponseHeaders()).startsWith("HTTP/3 200");
        assertThat(second.getResponseMessage()).isEqualTo("OK");
        assertThat(second.getResponseData()).isEqualTo(first.getResponseData());
        assertThat(fixture.server.connectionsAccepted(Listener.H2)).isEqualTo(1);
    }

    @Test
    void shouldFailWithTheReasonWhenHttp3IsToGoThroughAProxy() {
        http3("/small-text.txt");
        sampler.setProxyHost("127.0.0.1");
        sampler.setProxyPortInt("3128");

        SampleResult result = sampler.sample();

        assertThat(result.isSuccessful()).isFalse();
        assertThat(result.getResponseMessage()).contains("HTTP/3 cannot go through an HTTP proxy", "QUIC is UDP");
    }

    private Http2Sampler http3(String path) {
        fixture.target(Listener.H2, path, ProtocolMode.HTTP_3);
        sampler.setPort(fixture.server.h3Port());
        return sampler;
    }
}
