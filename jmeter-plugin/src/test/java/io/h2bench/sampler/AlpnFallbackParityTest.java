package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Listener;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sampler's default for https ("by scheme", and every plan converted from an HTTP Request): ALPN
 * offers h2 and http/1.1, and the server's choice decides which of the sampler's own engines sends
 * the request, on the connection of that one handshake. Against the project's server: its h2
 * listener chooses h2, its h1-tls listener knows only http/1.1. JMeter's HttpClient4 beside it.
 */
class AlpnFallbackParityTest {

    private SamplerFixture fixture;
    private JMeterVariables variables;
    private HTTPSamplerBase httpClient4;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("alpn");
        variables = fixture.freshVariables();
        httpClient4 = HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4);
    }

    @AfterEach
    void stop() {
        httpClient4.threadFinished();
        fixture.close();
    }

    @ParameterizedTest
    @CsvSource({"H2, h2-own, HTTP/2.0", "H1_TLS, h1-own, HTTP/1.1"})
    void shouldSendOnTheEngineAlpnChoseWhenTheSchemeChoosesTheVersion(Listener listener, String engine, String version) {
        aimBoth(listener, "/small-text.txt");

        for (String connection : new String[] {"new", "reused"}) {
            HTTPSampleResult theirs = (HTTPSampleResult) httpClient4.sample();
            HTTPSampleResult ours = (HTTPSampleResult) fixture.sampler.sample();

            assertSentBy(ours, engine);
            assertThat(ours.getResponseHeaders()).startsWith(version + " 200");
            assertThat(ours.getSamplerData()).as(connection).contains(connection.equals("new") ? "(new)" : "(reused)");
            assertThat(ours.getResponseCode()).isEqualTo(theirs.getResponseCode());
            // The sampler says when HTTP/1.1 was used although the scheme chose HTTP/2 (sampler.md).
            assertThat(ours.getResponseMessage()).startsWith(theirs.getResponseMessage());
            assertThat(ours.getResponseDataAsString()).isEqualTo(theirs.getResponseDataAsString());
            assertThat(ours.getBodySizeAsLong()).isEqualTo(theirs.getBodySizeAsLong());
            assertThat(ours.getLatency()).isLessThanOrEqualTo(ours.getTime());
            if (listener == Listener.H1_TLS) {
                // The same protocol both ways: the same response head. Sizes differ by design over TLS:
                // the own engines count wire bytes (handshake, records), HttpClient4 the HTTP ones.
                assertThat(withoutDate(ours.getResponseHeaders())).isEqualTo(withoutDate(theirs.getResponseHeaders()));
            }
        }
    }

    @Test
    void shouldSendAPagesResourcesOnTheOwnHttp11WhenAlpnChoseHttp11ForThePage() {
        aimBoth(Listener.H1_TLS, "/");
        fixture.sampler.setImageParser(true);
        httpClient4.setImageParser(true);

        SampleResult theirs = httpClient4.sample();
        SampleResult page = fixture.sampler.sample();

        assertSentBy(page, "h1-own");
        assertThat(page.getSubResults()).hasSameSizeAs(theirs.getSubResults()).isNotEmpty();
        for (SampleResult part : page.getSubResults()) {
            assertThat(part.isSuccessful()).as(part.getUrlAsString() + ": " + part.getResponseMessage()).isTrue();
            assertThat(part.getSamplerData()).as(part.getUrlAsString()).contains("Engine: h1-own\n");
        }
    }

    private void aimBoth(Listener listener, String path) {
        fixture.target(listener, path, null);
        httpClient4.setMethod("GET");
        httpClient4.setProtocol("https");
        httpClient4.setDomain("127.0.0.1");
        httpClient4.setPort(fixture.server.port(listener));
        httpClient4.setPath(path);
        httpClient4.setUseKeepAlive(true);
    }

    private static String withoutDate(String head) {
        return head.replaceAll("(?im)^Date: .*\\R", "");
    }

    private void assertSentBy(SampleResult sample, String engine) {
        assertThat(sample.isSuccessful()).as(sample.getResponseMessage()).isTrue();
        assertThat(variables.get(EngineColumn.VARIABLE)).isEqualTo(engine);
        assertThat(sample.getSamplerData()).contains("Engine: " + engine + "\n");
    }
}
