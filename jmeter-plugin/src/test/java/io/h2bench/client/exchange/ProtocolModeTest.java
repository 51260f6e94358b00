package io.h2bench.client.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProtocolModeTest {

    @Test
    void shouldReadEachValueAsItsModeWhenValuesAlternate() {
        // The last value is remembered: a different one after it must not get its mode.
        assertThat(ProtocolMode.parse("H2C")).isEqualTo(ProtocolMode.H2C);
        assertThat(ProtocolMode.parse("h2c")).isEqualTo(ProtocolMode.H2C);
        assertThat(ProtocolMode.parse(" http_1_1 ")).isEqualTo(ProtocolMode.HTTP_1_1);
        assertThat(ProtocolMode.parse("H2C")).isEqualTo(ProtocolMode.H2C);
        assertThat(ProtocolMode.parse("HTTP_3_ALT_SVC")).isEqualTo(ProtocolMode.HTTP_3_ALT_SVC);
        assertThat(ProtocolMode.parse("")).isEqualTo(ProtocolMode.HTTP_2);
        assertThat(ProtocolMode.parse(null)).isEqualTo(ProtocolMode.HTTP_2);
    }

    @Test
    void shouldRefuseAnUnknownValueWhenAKnownOneWasReadBefore() {
        ProtocolMode.parse("HTTP_2");

        assertThatThrownBy(() -> ProtocolMode.parse("HTTP2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 'HTTP2'");
        assertThatThrownBy(() -> ProtocolMode.parse("HTTP2"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
