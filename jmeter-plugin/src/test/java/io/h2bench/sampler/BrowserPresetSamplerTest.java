package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.server.Listener;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sampler's browser preset against the project's server: what it changes, its default, a bad value. */
class BrowserPresetSamplerTest {

    private SamplerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("preset");
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void shouldGetThePushesAsBeforeWhenAPlanSetsNoPreset() {
        fixture.target(Listener.H2, "/push", ProtocolMode.HTTP_2);
        fixture.sampler.removeProperty(Http2Sampler.BROWSER_PRESET);

        SampleResult result = fixture.sampler.sample();

        assertThat(fixture.sampler.getBrowserPreset()).isEqualTo(BrowserPreset.CHROME);
        assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        assertThat(result.getSubResults()).hasSize(16);
    }

    @Test
    void shouldGetNoPushesWhenFirefoxSaysItTakesNone() {
        fixture.target(Listener.H2, "/push", ProtocolMode.HTTP_2);
        fixture.sampler.setBrowserPreset(BrowserPreset.FIREFOX);

        SampleResult result = fixture.sampler.sample();

        // Firefox's SETTINGS_ENABLE_PUSH=0 reached the server, which then pushes nothing.
        assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        assertThat(result.getSubResults()).isEmpty();
    }

    @Test
    void shouldFailTheSampleWithTheValidPresetsWhenThePresetIsUnknown() {
        fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_2);
        fixture.sampler.setProperty(Http2Sampler.BROWSER_PRESET, "Safari");

        SampleResult result = fixture.sampler.sample();

        assertThat(result.isSuccessful()).isFalse();
        assertThat(result.getResponseMessage()).contains("Browser preset must be one of CHROME, FIREFOX, JETTY; was 'Safari'");
    }
}
