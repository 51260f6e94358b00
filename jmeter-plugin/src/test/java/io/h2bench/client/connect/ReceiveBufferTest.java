package io.h2bench.client.connect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReceiveBufferTest {

    @Test
    void shouldLeaveAutotuningOnWhenTheSystemAllowsLessThanFourMebibytes() {
        assertThat(ReceiveBuffer.choose(212_992)).isEqualTo(-1); // Linux's own default rmem_max
        assertThat(ReceiveBuffer.choose(-1)).isEqualTo(-1); // unreadable
    }

    @Test
    void shouldAskForWhatTheSystemAllowsUpToSixteenMebibytesWhenItAllowsEnough() {
        assertThat(ReceiveBuffer.choose(4L * 1024 * 1024)).isEqualTo(4 * 1024 * 1024);
        assertThat(ReceiveBuffer.choose(64L * 1024 * 1024)).isEqualTo(16 * 1024 * 1024);
    }
}
