package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Listener;
import io.h2bench.server.netem.LinkProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        try (KernelServer server = KernelServer.start(dsl, new LinkOptions(64, "cubic", LossPattern.RANDOM))) {
            Download download = downloadWithoutMemoryPressure(server);
            // on the wire each 1448-byte segment is a 1500-byte packet, and what the queue dropped when slow
            // start overfilled it (5 to 60 segments) crosses again; slow start fills the 40 kB
            // bandwidth-delay product within about 3 round trips, the request adds 1
            double serialisation = (TWO_MIB + download.retransmittedBytes()) * 8.0 / rate * 1500 / 1448 * 1000;
            double model = serialisation + 4 * rttMs;
            assertThat((double) download.millis()).as("ms for 2 MiB with %d B sent again, the server's socket: %s",
                            download.retransmittedBytes(), download.serverSocket())
                    .isBetween(model * 0.9, model * 1.1);
        }
    }

    /** A timed download of the large text, the bytes the server's TCP sent twice, and its socket as ss shows it. */
    private record Download(long millis, long retransmittedBytes, String serverSocket) {
    }

    /**
     * Under the machine's TCP memory pressure (tcp_mem, shared by every namespace: another run's
     * thousand unread connections) the kernel prunes the receiver's queue and drops what arrives, and
     * the sender waits for retransmission timeouts: 2 MiB took 10.3 s beside 1.7 GB of TCP memory, as
     * against 2.4 s. Such a download measured the machine, not the link: the client socket's own drop
     * count says so, and the download is measured again once the pressure is gone.
     */
    private static Download downloadWithoutMemoryPressure(KernelServer server) throws Exception {
        for (int attempt = 1; ; attempt++) {
            TcpMemory.awaitNoPressure(Duration.ofSeconds(60));
            try (TimedGet get = new TimedGet(server.host(), server.port(Listener.H1)).fetch("/large-text.txt")) {
                long drops = get.receiveQueueDrops();
                boolean pressure = TcpMemory.underPressure(); // the kernel keeps it until well below where it began
                if (drops == 0 && !pressure) {
                    String socket = server.socketInfo(get.localPort());
                    return new Download(get.millis(), retransmittedBytes(socket), socket);
                }
                System.out.printf("8 mbit download %d: %d ms, the client socket dropped %d segments, TCP memory pressure: %s%n",
                        attempt, get.millis(), drops, pressure);
                assertThat(attempt).as("downloads under TCP memory pressure or whose receiver dropped segments").isLessThan(3);
            }
        }
    }

    private static long retransmittedBytes(String socketInfo) {
        Matcher retrans = Pattern.compile("bytes_retrans:(\\d+)").matcher(socketInfo);
        return retrans.find() ? Long.parseLong(retrans.group(1)) : 0;
    }
}
