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
 * from the server's qlog: quiche's window when the first response's last byte left, and when the
 * second request arrived 1.75 s later.
 */
class Http3IdleWindowTest {

    private static final long RTT_MS = 100;
    private static final long IDLE_MS = 1750;
    private static final int BODY = 2 * 1024 * 1024;
    private static final long INITIAL_WINDOW = QuicOptions.DEFAULT_INITIAL_WINDOW * 1452L;
    private static final Pattern WINDOW = Pattern.compile("\"congestion_window\":(\\d+)");
    /** A STREAM frame with the FIN on request stream {@code id}. */
    private static final String STREAM_FIN = "\"stream_id\":%d,[^}]*\"fin\":true";

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

        long atLastByte = windowAt(qlog, "quic:packet_sent", 0);
        long atWarmRequest = windowAt(qlog, "quic:packet_received", 4);
        assertThat(atLastByte).as("window when the first 2 MiB's last byte left (B)").isGreaterThan(10 * INITIAL_WINDOW);
        assertThat(atWarmRequest).as("window when the second request arrived, %d ms idle later (B)", IDLE_MS)
                .isGreaterThanOrEqualTo(atLastByte);
    }

    private static void fetch(RawH3Client.Connection connection, URI uri) throws Exception {
        RawH3Client.Exchange exchange = connection.request(RawH3Client.get(uri));
        assertThat(exchange.response().get(30, TimeUnit.SECONDS)).isEqualTo(200);
        assertThat(exchange.bodyBytes()).isEqualTo(BODY);
    }

    /** quiche's congestion window as last reported before the first {@code event} with a FIN on stream {@code streamId}. */
    private static long windowAt(String qlog, String event, int streamId) {
        Pattern fin = Pattern.compile(String.format(STREAM_FIN, streamId));
        long window = -1;
        for (String line : qlog.split("\n")) {
            Matcher reported = WINDOW.matcher(line);
            if (reported.find()) {
                window = Long.parseLong(reported.group(1));
            }
            if (line.contains("\"name\":\"" + event + "\"") && fin.matcher(line).find()) {
                return window;
            }
        }
        throw new AssertionError("no " + event + " with a FIN on stream " + streamId + " in the server's qlog");
    }
}
