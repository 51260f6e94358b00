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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reused h3 connection starts its next response from the window the last one reached, as
 * ngtcp2's and quic-go's servers do (benchmarks page, warm connections): the listener restarts no
 * window after an idle gap (RFC 9002 7.8 and RFC 7661 allow either; the peers keep theirs). Read
 * from the server's qlog: what quiche sent of the second response, 1.75 s after the first, within
 * half a round trip of its first packet, before any ACK of it can have come back: a restarted window
 * lets out 10 datagrams then, a kept one the whole window (640 to 900 kB after a cold 2 MiB).
 */
class Http3IdleWindowTest {

    private static final long RTT_MS = 100;
    private static final long IDLE_MS = 1750;
    private static final int BODY = 2 * 1024 * 1024;
    private static final long INITIAL_WINDOW = QuicOptions.DEFAULT_INITIAL_WINDOW * 1452L;
    private static final Pattern TIME = Pattern.compile("^\\W*\\{\"time\":([0-9.]+),");
    /** A STREAM frame of stream 4 (the second request's) and its length. */
    private static final Pattern SECOND_STREAM = Pattern.compile("\\{\"frame_type\":\"stream\",\"stream_id\":4,[^}]*\"payload_length\":(\\d+)");

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
        String qlog = Http3PacingTest.onlyQlog(qlogs);

        long firstRoundTrip = bytesSentWithin(qlog, RTT_MS / 2.0);
        assertThat(firstRoundTrip).as("the second response's bytes sent before an ACK could return (B)")
                .isGreaterThan(10 * INITIAL_WINDOW);
    }

    private static void fetch(RawH3Client.Connection connection, URI uri) throws Exception {
        RawH3Client.Exchange exchange = connection.request(RawH3Client.get(uri));
        assertThat(exchange.response().get(30, TimeUnit.SECONDS)).isEqualTo(200);
        assertThat(exchange.bodyBytes()).isEqualTo(BODY);
    }

    /** The second response's stream bytes quiche sent within {@code millis} of the first of them. */
    private static long bytesSentWithin(String qlog, double millis) {
        double first = -1;
        long bytes = 0;
        for (String line : qlog.split("\n")) {
            Matcher time = TIME.matcher(line);
            if (!line.contains("\"name\":\"quic:packet_sent\"") || !time.find()) {
                continue;
            }
            Matcher frame = SECOND_STREAM.matcher(line);
            while (frame.find()) {
                double at = Double.parseDouble(time.group(1));
                if (first < 0) {
                    first = at;
                }
                if (at - first <= millis) {
                    bytes += Long.parseLong(frame.group(1));
                }
            }
        }
        if (first < 0) {
            throw new AssertionError("the server's qlog shows no packet of the second response");
        }
        return bytes;
    }
}
