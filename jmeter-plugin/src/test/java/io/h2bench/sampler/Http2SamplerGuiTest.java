package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.gui.Http2SamplerGui;
import org.apache.jmeter.testelement.TestElement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The GUI only moves values between JMeter's test element and Swing; check that round trip. */
class Http2SamplerGuiTest {

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
        InProcessJMeter.init();
    }

    @Test
    void shouldCreateTheH2benchSamplerWithDefaultsWhenAddedFromTheMenu() {
        Http2SamplerGui gui = new Http2SamplerGui();

        TestElement element = gui.createTestElement();

        assertThat(gui.getStaticLabel()).isEqualTo("h2bench HTTP/2 Request");
        assertThat(element).isInstanceOf(Http2Sampler.class);
        Http2Sampler sampler = (Http2Sampler) element;
        // No version set: HTTP/1.1 for http:// (never h2c unless chosen), HTTP/2 for https://.
        assertThat(sampler.getHttpVersionSet()).isNull();
        assertThat(sampler.getHttpVersion()).isEqualTo(ProtocolMode.HTTP_1_1);
        sampler.setProtocol("https");
        assertThat(sampler.getHttpVersion()).isEqualTo(ProtocolMode.HTTP_2);
        assertThat(sampler.getMaxConnectionsPerOrigin()).isEqualTo(6);
        assertThat(sampler.isAcceptPush()).isTrue();
        assertThat(sampler.getBrowserPreset()).isEqualTo(BrowserPreset.CHROME);
    }

    @Test
    void shouldReadChromeWhenAnOlderPlanHasNoPreset() {
        Http2Sampler older = new Http2Sampler();

        assertThat(older.getPropertyAsString(Http2Sampler.BROWSER_PRESET)).isEmpty();
        assertThat(older.getBrowserPreset()).isEqualTo(BrowserPreset.CHROME);
    }

    @ParameterizedTest
    @EnumSource(BrowserPreset.class)
    void shouldOfferAndKeepEveryBrowserPresetWhenChosenInTheCombo(BrowserPreset preset) {
        Http2Sampler original = new Http2Sampler();
        original.setBrowserPreset(preset);

        Http2Sampler saved = savedByTheGui(original);

        assertThat(saved.getPropertyAsString(Http2Sampler.BROWSER_PRESET)).isEqualTo(preset.name());
        assertThat(saved.getBrowserPreset()).isEqualTo(preset);
    }

    @Test
    void shouldKeepTheH2benchSettingsWhenConfiguredAndSavedAgain() {
        Http2Sampler original = new Http2Sampler();
        original.setHttpVersion(ProtocolMode.H2C_UPGRADE);
        original.setMaxConnectionsPerOrigin(3);
        original.setAcceptPush(false);
        original.setDomain("127.0.0.1");
        original.setPath("/small-text.txt");

        Http2Sampler saved = savedByTheGui(original);

        assertThat(saved.getHttpVersion()).isEqualTo(ProtocolMode.H2C_UPGRADE);
        assertThat(saved.getMaxConnectionsPerOrigin()).isEqualTo(3);
        assertThat(saved.isAcceptPush()).isFalse();
        assertThat(saved.getDomain()).isEqualTo("127.0.0.1");
        assertThat(saved.getPath()).isEqualTo("/small-text.txt");
        assertThat(saved.getPropertyAsString(Http2Sampler.HTTP_VERSION)).isEqualTo("H2C_UPGRADE");
    }

    @ParameterizedTest
    @EnumSource(ProtocolMode.class)
    void shouldOfferAndKeepEveryHttpVersionWhenChosenInTheCombo(ProtocolMode mode) {
        Http2Sampler original = new Http2Sampler();
        original.setHttpVersion(mode);

        Http2Sampler saved = savedByTheGui(original);

        assertThat(saved.getPropertyAsString(Http2Sampler.HTTP_VERSION)).isEqualTo(mode.name());
    }

    /** What the GUI saves after showing {@code original}: JMeter's configure, then modifyTestElement. */
    private static Http2Sampler savedByTheGui(Http2Sampler original) {
        Http2SamplerGui gui = new Http2SamplerGui();
        gui.configure(original);
        Http2Sampler saved = (Http2Sampler) gui.createTestElement();
        gui.modifyTestElement(saved);
        return saved;
    }
}
