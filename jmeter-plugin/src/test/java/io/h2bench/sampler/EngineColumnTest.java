package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.server.Listener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every sample says which of the client's engines sent it, in its sampler data and in the variable a
 * JTL saves through {@code sample_variables}: real samples of each protocol against the project's server.
 */
class EngineColumnTest {

    private SamplerFixture fixture;
    private JMeterVariables variables;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("engine");
        variables = fixture.freshVariables();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void shouldNameTheSamplersOwnHttp11WhenHttp11IsChosen() {
        fixture.target(Listener.H1, "/small-text.txt", ProtocolMode.HTTP_1_1);

        assertSentBy(fixture.sampler.sample(), "h1-own");
    }

    @Test
    void shouldNameTheSamplersOwnHttp2WhenHttp2OverTlsIsChosenWithABrowsersPreset() {
        fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_2);

        assertSentBy(fixture.sampler.sample(), "h2-own");
    }

    @Test
    void shouldNameTheSamplersOwnHttp2WhenHttp2OverTlsKeepsJettysOwnSettings() {
        fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_2).setBrowserPreset(BrowserPreset.JETTY);

        assertSentBy(fixture.sampler.sample(), "h2-own");
        assertSentBy(fixture.sampler.sample(), "h2-own");
    }

    @Test
    void shouldNameNettysQuicWhenHttp3IsChosen() {
        fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_3).setPort(fixture.server.h3Port());

        assertSentBy(fixture.sampler.sample(), "h3-netty");
    }

    @Test
    void shouldNameTheSamplersOwnHttp2ThenQuicWhenHttp3IsChosenByAltSvc() {
        fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_3_ALT_SVC);

        assertSentBy(fixture.sampler.sample(), "h2-own");
        assertSentBy(fixture.sampler.sample(), "h3-netty");
    }

    @Test
    void shouldNameThePagesOwnEngineWhileItsResourcesNameTheirsWhenHttp3IsChosenByAltSvc() {
        fixture.target(Listener.H2, "/", ProtocolMode.HTTP_3_ALT_SVC).setImageParser(true);

        SampleResult page = fixture.sampler.sample();

        // The page's response advertised h3: its resources went over QUIC, the page itself over TCP.
        SampleResult[] parts = page.getSubResults();
        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(variables.get(EngineColumn.VARIABLE)).isEqualTo("h2-own");
        assertThat(parts[0].getSamplerData()).contains("Engine: h2-own\n");
        assertThat(parts[parts.length - 1].getSamplerData()).contains("Engine: h3-netty\n");
    }

    private void assertSentBy(SampleResult sample, String engine) {
        assertThat(sample.isSuccessful()).as(sample.getResponseMessage()).isTrue();
        assertThat(variables.get(EngineColumn.VARIABLE)).isEqualTo(engine);
        assertThat(sample.getSamplerData()).contains("Engine: " + engine + "\n");
    }
}
