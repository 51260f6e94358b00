package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The link's arithmetic, without devices: runs anywhere. */
class LinkShaperTest {

    private static final long MS = 1_000_000;

    @Test
    void shouldDeliverAfterTheOneWayDelayWhenTheRateIsUnlimited() {
        LinkShaper shaper = new LinkShaper(0, 50 * MS, 10);

        assertThat(shaper.admit(1500, 1000)).isEqualTo(1000 + 50 * MS);
    }

    @Test
    void shouldSerialisePacketsBackToBackWhenTheyArriveTogether() {
        // 1500 bytes at 12 Mbit/s: 1 ms on the wire each
        LinkShaper shaper = new LinkShaper(12_000_000, 20 * MS, 10);

        assertThat(shaper.admit(1500, 0)).isEqualTo(21 * MS);
        assertThat(shaper.admit(1500, 0)).isEqualTo(22 * MS);
        assertThat(shaper.admit(1500, 10 * MS)).isEqualTo(31 * MS);
    }

    @Test
    void shouldDropTheTailWhenTheQueueIsFull() {
        LinkShaper shaper = new LinkShaper(12_000_000, 0, 3);
        for (int i = 0; i < 3; i++) {
            assertThat(shaper.admit(1500, 0)).isNotEqualTo(LinkShaper.DROPPED);
        }

        assertThat(shaper.admit(1500, 0)).isEqualTo(LinkShaper.DROPPED);
        assertThat(shaper.queueDrops()).isEqualTo(1);
        // once the first packet has left the wire, one more fits
        assertThat(shaper.admit(1500, MS)).isEqualTo(4 * MS);
    }
}
