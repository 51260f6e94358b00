package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.RawH3Client;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.netem.LinkProfile;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reused h3 connection starts its next response from the window the last one reached, as
 * ngtcp2's and quic-go's servers do (benchmarks page, warm connections): the listener restarts no
 * window after an idle gap (RFC 9002 7.8 and RFC 7661 allow either; the peers keep theirs). Read
 * from the server's qlog by cause, not by time: the congestion window quiche held when it sent the
 * second response's first packet, 1.75 s after the first response (640 to 900 kB after a cold 2 MiB;
 * a restarted one is the 14,520 B a new connection starts from), and what it sent of that response
 * before the first ACK of it came back: more than a restarted window lets out, which the body's first
 * 64 KiB write is on any machine. Bytes counted within half a round trip of the first packet fell
 * below 10 initial windows on a machine too busy to send them that fast; so can the bytes before the
 * first ACK (three of the body's 64 KiB writes must reach quiche before it takes that ACK).
 */
class Http3IdleWindowTest {

    private static final long RTT_MS = 100;
    private static final long IDLE_MS = 1750;
    private static final int BODY = 2 * 1024 * 1024;
    private static final long DATAGRAM = 1452;
    private static final long INITIAL_WINDOW = QuicOptions.DEFAULT_INITIAL_WINDOW * DATAGRAM;
    private static final int FIRST_STREAM = 0;
    private static final int SECOND_STREAM = 4;

    @Test
    void shouldKeepItsWindowAcrossAnIdleGapWhenAConnectionIsReused(@TempDir Path qlogs) throws Exception {
        Ngtcp2Client.assumeInstalled(); // the kernel link's h3 tests run where the outside tools are
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(LinkProfile.ideal().withRtt(Duration.ofMillis(RTT_MS)))
                .withQuic(QuicOptions.defaults().withQlogDirectory(qlogs));
        try (KernelServer server = KernelServer.start(settings, LinkOptions.defaults()); RawH3Client client = RawH3Client.start()) {
            int port = server.server().h3Port();
            URI uri = URI.create("https://" + server.host() + ":" + port + "/option?size=2m");
            RawH3Client.Connection connection = client.connect(server.host(), port).get(10, TimeUnit.SECONDS);
            fetch(connection, uri);
            Thread.sleep(IDLE_MS); // the idle gap under test, not a time asserted
            fetch(connection, uri);
            connection.close();
        }
        QuicheQlog qlog = QuicheQlog.ofLastConnection(qlogs);
        List<Long> second = qlog.streamBytesPerRoundTrip(SECOND_STREAM);

        // Read as a restarted window would show: the cold first response starts from the initial one, or a
        // datagram more where the handshake's ACKs grew it (the server's patched quiche grows its window by ACKs
        // that arrive while it is not the limit, as ngtcp2's does; Netty's quiche does not).
        assertThat(qlog.congestionWindowAtStartOf(FIRST_STREAM)).as("the window at the first response (B)")
                .isBetween(INITIAL_WINDOW, INITIAL_WINDOW + 2 * DATAGRAM);
        assertThat(qlog.congestionWindowAtStartOf(SECOND_STREAM)).as("the window at the second response (B)")
                .isGreaterThan(10 * INITIAL_WINDOW);
        // and used: past what a restarted window lets out before the first ACK, with the body's first write alone
        assertThat(second.get(0)).as("the second response's bytes sent before an ACK of them came back (B), of %s", second)
                .isGreaterThan(INITIAL_WINDOW);
    }

    private static void fetch(RawH3Client.Connection connection, URI uri) throws Exception {
        RawH3Client.Exchange exchange = connection.request(RawH3Client.get(uri));
        assertThat(exchange.response().get(30, TimeUnit.SECONDS)).isEqualTo(200);
        assertThat(exchange.bodyBytes()).isEqualTo(BODY);
    }
}
