package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.RawH3Client;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.h3.QuicheLibrary;
import io.h2bench.server.netem.LinkProfile;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38: the h3 listener's CUBIC keeps a window cut after a sparse loss, as ngtcp2's and quic-go's
 * servers do, because the server's quiche is build-quiche.sh's with quiche-cubic-no-rollback.patch.
 * Netty's own quiche undoes such a cut at the end of its recovery (fewer than a fifth of the window's
 * packets lost): its window is back at the one before the loss one round trip later, which makes 2 MiB
 * at 1 % loss take 0.37x gtlsserver's time (benchmarks page, "quiche's CUBIC, patched"). One 1 MiB download
 * with the same sparse losses on every run (1 %, the per-connection pattern), read from the server's
 * qlog by cause: each cut at a loss, and the next window quiche logged after it. And the first cut is
 * made from the window with the packets acknowledged by the ACK that revealed the loss, as ngtcp2 0.12 makes it
 * (quiche-recovery-acks-before-losses.patch).
 * Where the build fell back to Netty's library (server/native/quiche-library.sh: no Rust 1.88+ here, or
 * no network for a first build) the test does not run and says why, which bin/test accepts on CI for a
 * missing Rust only; with -Dh2bench.quiche=netty it runs and fails.
 */
class Http3WindowCutHoldsTest {

    private static final long RTT_MS = 40;
    private static final double LOSS = 0.01;
    private static final int BODY = 1024 * 1024;
    /** Less than any full packet quiche sends on the link (1,350 B or more). */
    private static final int MIN_PACKET = 1200;

    @Test
    void shouldKeepAWindowCutAfterRecoveryWhenALargeDownloadLosesSparsePackets(@TempDir Path qlogs) throws Exception {
        List<QuicheQlog.WindowCut> cuts = windowCutsOfOneLossyDownload(qlogs);
        String library = QuicheLibrary.loaded().describe();

        // 1 MiB is about 720 datagrams: 1 % of them is a few losses, each its own recovery
        assertThat(cuts).as("the window cuts at a loss (B): before, cut, next").hasSizeGreaterThanOrEqualTo(3);
        assertThat(cuts).as("every cut at a loss holds (B), with %s", library)
                .noneMatch(QuicheQlog.WindowCut::undone);
        // each a cut by CUBIC's beta (0.7), not a collapse to the minimum window. The first, in slow start, is made
        // from the window its ACK's packets grew first (the test below), which can be a third larger than the one
        // logged before that ACK (66,792 B grown to about 90,000, cut to 63,016, in one CI run): only no collapse there.
        assertThat(cuts.get(0).cut()).as("%s", cuts.get(0)).isGreaterThanOrEqualTo(cuts.get(0).before() / 2);
        assertThat(cuts.subList(1, cuts.size()))
                .allSatisfy(cut -> assertThat(cut.cut()).as("%s", cut).isBetween(cut.before() / 2, cut.before() * 9 / 10));
    }

    /**
     * quiche-recovery-acks-before-losses.patch: the ACK that reveals the first loss (in slow start)
     * acknowledges other packets too, and they grow the window before the loss cuts it, as in ngtcp2 0.12.
     * In RFC 9002's order (quiche's own) the loss cut first and they, sent before the recovery, grew
     * nothing: the cut was 0.7 x the window logged before the ACK, to the byte.
     */
    @Test
    void shouldCutTheWindowWithTheAckedPacketsInItWhenAnAckRevealsALoss(@TempDir Path qlogs) throws Exception {
        List<QuicheQlog.WindowCut> cuts = windowCutsOfOneLossyDownload(qlogs);
        if (!cuts.isEmpty() && !cuts.get(0).byAck()) {
            // the loss timer found the first loss (too few packets after it were acknowledged): no ACK to order
            // with it. The losses are the same on every download, the timing not: once more.
            cuts = windowCutsOfOneLossyDownload(Files.createDirectory(qlogs.resolve("again")));
        }

        assertThat(cuts).as("the window cuts at a loss (B): before, cut, next").isNotEmpty();
        QuicheQlog.WindowCut first = cuts.get(0);
        assertThat(first.byAck()).as("the first cut revealed by an ACK, in one of two downloads: %s", first).isTrue();
        assertThat(first.cut()).as("the first cut (B) against 0.7 x the window before its ACK: %s", first)
                .isGreaterThanOrEqualTo(Math.round(0.7 * (first.before() + MIN_PACKET)));
    }

    /** One 1 MiB download with the same sparse losses on every run, and the window cuts in the server's qlog. */
    private static List<QuicheQlog.WindowCut> windowCutsOfOneLossyDownload(Path qlogs) throws Exception {
        assumeThePatchedBuildCouldRun();
        Ngtcp2Client.assumeInstalled(); // the kernel link's h3 tests run where the outside tools are
        ServerSettings settings = ServerSettings.ephemeral()
                .withNetwork(LinkProfile.ideal().withRtt(Duration.ofMillis(RTT_MS)).withLoss(LOSS))
                .withQuic(QuicOptions.defaults().withQlogDirectory(qlogs));
        LinkOptions sameLosses = new LinkOptions(LinkOptions.DEFAULT_QUEUE_PACKETS, LinkOptions.DEFAULT_CONGESTION_CONTROL,
                LossPattern.PER_CONNECTION);
        try (KernelServer server = KernelServer.start(settings, sameLosses); RawH3Client client = RawH3Client.start()) {
            int port = server.server().h3Port();
            URI uri = URI.create("https://" + server.host() + ":" + port + "/option?size=1m");
            RawH3Client.Connection connection = client.connect(server.host(), port).get(10, TimeUnit.SECONDS);
            RawH3Client.Exchange exchange = connection.request(RawH3Client.get(uri));
            assertThat(exchange.response().get(60, TimeUnit.SECONDS)).isEqualTo(200);
            assertThat(exchange.bodyBytes()).isEqualTo(BODY);
            connection.close();
        }
        List<QuicheQlog.WindowCut> cuts = QuicheQlog.ofLastConnection(qlogs).windowCuts();
        System.out.printf("%s: window cuts at a loss (B): %s%n", QuicheLibrary.loaded().describe(), cuts);
        return cuts;
    }

    /** The build's note on the library beside it (server/pom.xml): a fallback is a machine that could not build it. */
    private static void assumeThePatchedBuildCouldRun() throws IOException {
        String note = System.getProperty("h2bench.quiche.note");
        if (note == null || !Files.isRegularFile(Path.of(note))) {
            return;
        }
        for (String line : Files.readAllLines(Path.of(note))) {
            Assumptions.assumeFalse(line.startsWith("fallback: "), () -> "not run: the build used Netty's quiche library ("
                    + line.substring("fallback: ".length()) + ")");
        }
    }
}
