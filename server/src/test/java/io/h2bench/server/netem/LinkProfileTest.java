package io.h2bench.server.netem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LinkProfileTest {

    /** DevTools wrote "kb/s" meaning 1024 bit/s; its latency becomes our RTT. */
    @ParameterizedTest
    @CsvSource({
        "gprs, 500, 50, 20",
        "regular-2g, 300, 250, 50",
        "good-2g, 150, 450, 150",
        "regular-3g, 100, 750, 250",
        "good-3g, 40, 1536, 750",
        "regular-4g, 20, 4096, 3072",
        "dsl, 5, 2048, 1024",
        "wifi, 2, 30720, 15360",
    })
    void shouldCarryDevToolsNumbersWhenPresetIsNamed(String name, int latencyMillis, int downKb, int upKb) {
        LinkProfile profile = LinkProfile.preset(name);

        assertThat(profile.rtt()).isEqualTo(Duration.ofMillis(latencyMillis));
        assertThat(profile.downBitsPerSecond()).isEqualTo(downKb * 1024L);
        assertThat(profile.upBitsPerSecond()).isEqualTo(upKb * 1024L);
        assertThat(profile.loss()).isZero();
    }

    @Test
    void shouldFindPresetWhenNameIsWrittenAsDevToolsShowsIt() {
        assertThat(LinkProfile.preset("Regular 4G")).isEqualTo(LinkProfile.preset("regular-4g"));
        assertThat(LinkProfile.preset("WiFi").name()).isEqualTo("wifi");
    }

    @Test
    void shouldRejectValuesWhenTheyCannotDescribeALink() {
        assertThatThrownBy(() -> LinkProfile.ideal().withLoss(0.5)).hasMessageContaining("loss");
        assertThatThrownBy(() -> LinkProfile.ideal().withRtt(Duration.ofMillis(-1))).hasMessageContaining("rtt");
        assertThatThrownBy(() -> LinkProfile.ideal().withBandwidth(-1, 0)).hasMessageContaining("bandwidth");
    }
}
