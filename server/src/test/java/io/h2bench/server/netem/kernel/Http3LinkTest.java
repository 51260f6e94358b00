package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.netem.LinkProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * h3 behind the kernel link: the link relays IP packets whatever they carry, so QUIC's UDP pays its
 * round trips as TCP does: the handshake takes one round trip and the request another.
 */
class Http3LinkTest {

    private static final long RTT_MS = 100;
    /** What the server and gtlsclient may add to two round trips on a loaded 2-core machine. */
    private static final long SERVER_BUDGET_MS = 400;

    @Test
    void shouldTakeTwoRoundTripsWhenNgtcp2FetchesASmallObjectOverTheLink(@TempDir Path downloads) throws Exception {
        Ngtcp2Client.assumeInstalled();
        try (KernelServer server = KernelServer.start(LinkProfile.ideal().withRtt(Duration.ofMillis(RTT_MS)))) {
            int port = server.server().h3Port();
            // A first connection warms the server's code, so the second one times the network.
            Ngtcp2Client.fetch(server.host(), port, Files.createDirectory(downloads.resolve("warm-up")), "/option?size=100");

            Ngtcp2Client h3 = Ngtcp2Client.fetch(server.host(), port, downloads, "/option?size=100");

            assertThat(h3.status(0)).as(h3.log()).isEqualTo(200);
            assertThat(h3.body("option?size=100")).hasSize(100);
            // The link delays QUIC's datagrams as it does TCP's segments: ngtcp2 measures its round trip.
            assertThat(h3.minRttMillis()).as(h3.log()).isBetween(RTT_MS, RTT_MS + RTT_MS / 2);
            // Handshake, request: two round trips at least; a busy machine's server adds its crypto and
            // scheduling (150 ms of it in one loaded run), so the upper band is wide.
            assertThat(h3.millisToStatus(0)).as(h3.log()).isBetween(2 * RTT_MS, 2 * RTT_MS + SERVER_BUDGET_MS);
        }
    }
}
