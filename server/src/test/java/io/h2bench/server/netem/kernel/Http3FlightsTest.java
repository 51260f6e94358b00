package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.netem.LinkProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38's 44 kB round trip: the h3 listener sends each round trip the whole window quiche allows,
 * and nothing of its own (the pacer, a flush, a flow-control window) holds a byte to the next. Slow
 * start from quiche's initial window of 10 datagrams of 1,452 bytes gives flights of 14,520 and
 * 29,040 bytes on the wire, counted exactly: quiche grows its window by no byte of the handshake (it
 * was not window-limited, RFC 9002 7.8) and sends no packet past it. Those two flights hold 41.7 kB of
 * the response's stream, so a 44 kB body needs a third flight, as Linux TCP's 10 + 20 segments need
 * one for it (ngtcp2's server, which counts the handshake and lets each flight's last packet pass the
 * window, sent 50 kB in two flights with an RSA certificate's larger handshake). Flights are counted
 * by cause in the server's qlog, each packet in the round trip whose ACKs released it: arrival gaps
 * in the client's log moved a flight's last datagrams into the next when a busy machine stalled either
 * end for 50 ms. Quiche's default datagrams of 1,200 bytes fail it (flights of 12,000 and 24,000 bytes).
 */
class Http3FlightsTest {

    private static final long RTT_MS = 100;
    private static final long DATAGRAM = 1452;
    private static final long WINDOW = QuicOptions.DEFAULT_INITIAL_WINDOW * DATAGRAM;

    @Test
    void shouldSendQuichesWholeWindowEveryRoundTripWhenA44kBodyTakesThreeFlights(@TempDir Path downloads, @TempDir Path qlogs)
            throws Exception {
        Ngtcp2Client.assumeInstalled();
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(LinkProfile.ideal().withRtt(Duration.ofMillis(RTT_MS)))
                .withQuic(QuicOptions.defaults().withQlogDirectory(qlogs));
        try (KernelServer server = KernelServer.start(settings, LinkOptions.defaults())) {
            fetch(server, downloads); // the first connection: JIT, the handshake's first signature
            fetch(server, downloads);
        }
        List<Long> flights = QuicheQlog.ofLastConnection(qlogs).streamBytesPerRoundTrip(0);

        // One datagram's worth per flight is the handshake's own 1-RTT frames and the packets' headers.
        assertThat(flights).as("stream bytes per flight: %s", flights).hasSize(3);
        assertThat(flights.get(0)).as("first flight, of a %d B window", WINDOW).isGreaterThanOrEqualTo(WINDOW - DATAGRAM);
        assertThat(flights.get(1)).as("second flight, of a %d B window", 2 * WINDOW).isGreaterThanOrEqualTo(2 * WINDOW - DATAGRAM);
        assertThat(flights.stream().mapToLong(Long::longValue).sum()).as("the response's stream").isGreaterThan(45_056);
    }

    private static void fetch(KernelServer server, Path downloads) throws Exception {
        Ngtcp2Client h3 = Ngtcp2Client.fetch(server.host(), server.server().h3Port(), downloads, "/option?size=44k");
        assertThat(h3.status(0)).as(h3::log).isEqualTo(200);
        assertThat(h3.body("option?size=44k")).hasSize(45_056);
    }
}
