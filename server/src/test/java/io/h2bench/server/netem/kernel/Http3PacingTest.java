package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.netem.LinkProfile;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The h3 listener's RTT samples are the link's: a listener that sends quiche's packets at other times
 * than quiche stamps them (Jetty 12.1.5's, with quiche's pacing on, until 2026-11-27) gets samples
 * below the link's round trip (min_rtt 0 ms behind this 100 ms link), and HyStart++ leaves slow start
 * on the false rises. The server's own qlog ({@code --qlog-dir}) shows what quiche measured; ngtcp2's
 * client measures the same link from the other end.
 */
class Http3PacingTest {

    private static final long RTT_MS = 100;

    @Test
    void shouldMeasureTheLinksRoundTripWhenItSendsA2MbBodyOverH3(@TempDir Path downloads, @TempDir Path qlogs) throws Exception {
        Ngtcp2Client.assumeInstalled();
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(LinkProfile.ideal().withRtt(Duration.ofMillis(RTT_MS)))
                .withQuic(QuicOptions.defaults().withQlogDirectory(qlogs));
        try (KernelServer server = KernelServer.start(settings, LinkOptions.defaults())) {
            Ngtcp2Client h3 = Ngtcp2Client.fetch(server.host(), server.server().h3Port(), downloads, "/large-text.txt");

            assertThat(h3.status(0)).as(h3.log()).isEqualTo(200);
            assertThat(h3.body("large-text.txt")).hasSize(2 * 1024 * 1024);
            // No sample below the link's round trip: every packet was stamped when it left. (HyStart++'s
            // states are not asserted: on a busy machine the server's own delays are real RTT rises.)
            assertThat(QuicheQlog.ofOnlyConnection(qlogs).lowestMinRttMillis()).as("quiche's min_rtt (ms)").isBetween(RTT_MS - 1.0, RTT_MS + RTT_MS / 2.0);
            assertThat(h3.minRttMillis()).as("ngtcp2's min_rtt (ms)").isBetween(RTT_MS, RTT_MS + RTT_MS / 2);
        }
    }
}
