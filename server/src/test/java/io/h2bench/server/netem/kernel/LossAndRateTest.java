package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Listener;
import io.h2bench.server.netem.LinkProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Loss and a rate limit on the kernel link, seen by the server's own TCP. */
class LossAndRateTest {

    private static final long TWO_MIB = 2 * 1024 * 1024;

    @Test
    void shouldMakeTheServerRetransmitWhenTheLinkLosesTwoPercent() throws Exception {
        LinkProfile lossy = LinkProfile.ideal().withName("lossy").withRtt(Duration.ofMillis(20)).withLoss(0.02);
        try (KernelServer server = KernelServer.start(lossy)) {
            long before = server.retransmittedSegments();
            try (TimedGet get = new TimedGet(server.host(), server.port(Listener.H1)).fetch("/large-text.txt")) {
                assertThat(get.bodyBytes()).isEqualTo(TWO_MIB);
            }
            LinkCounters counters = server.link().counters();
            // about 1450 data segments down: 2 % is about 29 of them lost, each one retransmitted
            assertThat(counters.down().lost()).isGreaterThan(5);
            assertThat(server.retransmittedSegments() - before).isGreaterThanOrEqualTo(counters.down().lost());
        }
    }

    @Test
    void shouldLoseAsManySegmentsOfEachDownloadWhenTheLossIsPerConnection() throws Exception {
        LinkProfile lossy = LinkProfile.ideal().withName("lossy").withRtt(Duration.ofMillis(20)).withLoss(0.02);
        LinkOptions sameLosses = new LinkOptions(LinkOptions.DEFAULT_QUEUE_PACKETS, "cubic", LossPattern.PER_CONNECTION);
        try (KernelServer server = KernelServer.start(lossy, sameLosses)) {
            List<Long> lostPerDownload = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                long before = server.link().counters().down().lost();
                try (TimedGet get = new TimedGet(server.host(), server.port(Listener.H1)).fetch("/large-text.txt")) {
                    assertThat(get.bodyBytes()).isEqualTo(TWO_MIB);
                }
                lostPerDownload.add(server.link().counters().down().lost() - before);
            }

            // random loss would differ by about 5 segments (the square root of 29) from one download to the next
            assertThat(lostPerDownload.get(0)).isGreaterThan(5);
            assertThat(lostPerDownload).containsOnly(lostPerDownload.get(0));
        }
    }

    @Test
    void shouldTakeSizeOverRatePlusSlowStartWhenTheLinkCarriesEightMegabits() throws Exception {
        long rate = 8_000_000;
        long rttMs = 40;
        LinkProfile dsl = LinkProfile.ideal().withName("8 mbit").withRtt(Duration.ofMillis(rttMs)).withBandwidth(rate, rate);
        try (KernelServer server = KernelServer.start(dsl, new LinkOptions(64, "cubic", LossPattern.RANDOM));
             TimedGet get = new TimedGet(server.host(), server.port(Listener.H1)).fetch("/large-text.txt")) {
            // on the wire each 1448-byte segment is a 1500-byte packet; slow start fills the
            // 40 kB bandwidth-delay product within about 3 round trips, the request adds 1
            double serialisation = TWO_MIB * 8.0 / rate * 1500 / 1448 * 1000;
            double model = serialisation + 4 * rttMs;
            assertThat((double) get.millis()).isBetween(model * 0.9, model * 1.1);
        }
    }
}
