package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.RawH3Client;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.h3.QuicheLibrary;
import io.h2bench.server.netem.LinkProfile;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 *
 * <p>And quiche's pacer (server/native/quiche-pacing-builds-when-due.patch) lets a small response
 * that fits that window go whole, as ngtcp2's server sends it (the benchmarks page's warm 44 kB): its
 * 32 packets are one 64 KiB burst, ngtcp2's send quantum; bursts of 10 datagrams held the last 22 for
 * 25 to 30 ms of the 100 ms round trip. A large one is built as it may leave, burst by burst at
 * 1.25 x cwnd / srtt: the Java pacer after quiche (still the listener's with Netty's own quiche) held
 * a warm 2 MiB's whole 2.1 MB window, which quiche built at the request, for up to a round trip, and
 * quiche's RTT samples took the hold in (median 128 to 182 ms behind this 100 ms link). Read from the server's
 * qlog as the time from the response's last packet built to its ACK: a round trip (quiche's lowest
 * sample) plus any hold.
 */
class Http3IdleWindowTest {

    private static final long RTT_MS = 100;
    private static final long IDLE_MS = 1750;
    private static final int BODY_2M = 2 * 1024 * 1024;
    private static final int BODY_44K = 45_056;
    private static final long DATAGRAM = 1452;
    private static final long INITIAL_WINDOW = QuicOptions.DEFAULT_INITIAL_WINDOW * DATAGRAM;
    private static final int FIRST_STREAM = 0;
    private static final int SECOND_STREAM = 4;
    /**
     * Packets closer than this are one burst: quiche builds a burst's in microseconds each, though Netty's
     * write loop may pause for most of a millisecond within one; the next burst waits a millisecond at least.
     */
    private static final double BURST_GAP_MS = 0.95;
    /** The pacer's burst, ngtcp2's send quantum. */
    private static final long PACING_QUANTUM = 64 * 1024;
    private static final double PACING_GAIN = 1.25;
    /** qlog's send times are microseconds; the patch rounds nanoseconds. */
    private static final double CLOCK_SLACK_MS = 0.005;
    /** How early a burst may leave when a client's packet wakes the pacer (quiche-pacing-whole-milliseconds.patch). */
    private static final double EARLY_MS = 1.0;

    @Test
    void shouldKeepItsWindowAcrossAnIdleGapWhenAConnectionIsReused(@TempDir Path qlogs) throws Exception {
        QuicheQlog qlog = fetchTwiceOnOneConnection(qlogs, "/option?size=2m", BODY_2M);
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

    @Test
    void shouldSendAWarm44kBResponseInOneBurstWhenAConnectionIsReused(@TempDir Path qlogs) throws Exception {
        QuicheQlog qlog = fetchTwiceOnOneConnection(qlogs, "/option?size=44k", BODY_44K);

        // a round trip and at most an eighth of one more (a busy machine's delays); the pacer's hold was twice that
        assertThat(qlog.millisToAcknowledgeLastPacketOf(SECOND_STREAM)).as("ms from the warm response's last packet built to its ACK")
                .isLessThan(qlog.lowestMinRttMillis() + RTT_MS / 8.0);
    }

    @Test
    void shouldBuildAWarm2MiBResponseAsItMayLeaveWhenAConnectionIsReused(@TempDir Path qlogs) throws Exception {
        QuicheQlog qlog = fetchTwiceOnOneConnection(qlogs, "/option?size=2m", BODY_2M);

        // samples of the link's round trip: each packet left as it was built
        assertThat(qlog.medianRttSampleMillis()).as("the median of quiche's RTT samples (ms)").isLessThan(RTT_MS + RTT_MS / 8.0);
        // a round trip and at most an eighth of one more; built at the request, the last packet waited out the pacer's hold
        assertThat(qlog.millisToAcknowledgeLastPacketOf(SECOND_STREAM)).as("ms from the warm response's last packet built to its ACK")
                .isLessThan(qlog.lowestMinRttMillis() + RTT_MS / 8.0);
    }

    /**
     * quiche-pacing-whole-milliseconds.patch: the pacer waits for each next burst as ngtcp2's server
     * waits on its libev loop. Its timer waits whole milliseconds, rounded up from a burst's last packet
     * to the time the next one is due (its bytes at 1.25 x window / srtt from its first); a packet from
     * the client wakes it earlier, and then a burst may leave up to 1 ms before it is due, as ngtcp2 lets
     * it (NGTCP2_PKT_PACING_OVERHEAD). A warm 2 MiB leaves within a round trip, no ACK coming in: a gate
     * that opened when due sent it in 0.90-0.95 of gtlsserver's time. A cold one is paced while slow
     * start's ACKs come in: a gate that opened only on its timer sent a cold 10 MiB in 1.04 of
     * gtlsserver's time. Read from the server's qlog; a busy machine delays bursts, which only makes them
     * later.
     */
    @Test
    void shouldWaitWholeMillisecondsForEachNextBurstUnlessAClientsPacketComesFirstWhenA2MiBIsPacedColdThenWarm(@TempDir Path qlogs)
            throws Exception {
        QuicheQlog qlog = fetchTwiceOnOneConnection(qlogs, "/option?size=2m", BODY_2M);
        Pacing cold = pacing(qlog.bursts(FIRST_STREAM, BURST_GAP_MS, PACING_QUANTUM, DATAGRAM));
        Pacing warm = pacing(qlog.bursts(SECOND_STREAM, BURST_GAP_MS, PACING_QUANTUM, DATAGRAM));
        System.out.printf("%s: cold %s; warm %s%n", QuicheLibrary.loaded().describe(), cold, warm);

        assertThat(warm.whole()).as("whole bursts of the warm response").isGreaterThanOrEqualTo(10);
        assertThat(cold.whole()).as("whole bursts of the cold response").isGreaterThanOrEqualTo(10);
        // a window or RTT logged a moment off the one quiche paced by may move a burst's due time across a millisecond
        for (Pacing response : List.of(cold, warm)) {
            assertThat(response.early()).as("bursts sent before their earliest time, of %d", response.whole())
                    .hasSizeLessThanOrEqualTo(response.whole() / 10);
        }
        assertThat(warm.beforeTheTimer()).as("warm bursts let out before the timer's time, of %d", warm.whole())
                .isLessThanOrEqualTo(warm.whole() / 10);
        assertThat(cold.beforeTheTimer()).as("cold bursts that a client's packet let out before the timer's time, of %d",
                cold.whole()).isPositive();
    }

    /** Of a response's paced bursts: how many, those sent before their earliest time, and those before the timer's. */
    record Pacing(int whole, List<String> early, int beforeTheTimer) {
    }

    private static Pacing pacing(List<QuicheQlog.Burst> bursts) {
        List<String> early = new ArrayList<>();
        int whole = 0;
        int beforeTheTimer = 0;
        for (int i = 1; i < bursts.size(); i++) {
            QuicheQlog.Burst before = bursts.get(i - 1);
            QuicheQlog.Burst next = bursts.get(i);
            // a burst as quiche counted it, paced: begun and followed by waits, ended by the quantum. Where the body
            // reaches quiche slower than the pacer lets it go, or the window holds it, quiche's bursts end early, and
            // the next is due before it comes: the qlog cannot tell those apart from pauses within one.
            if (before.gapBefore() < BURST_GAP_MS || next.gapBefore() < BURST_GAP_MS || before.bytes() + DATAGRAM <= PACING_QUANTUM) {
                continue;
            }
            whole++;
            double due = before.firstAt() + before.bytes() / (PACING_GAIN * before.window() / before.smoothedRttMillis());
            double timer = due > before.lastAt() ? before.lastAt() + Math.ceil(due - before.lastAt()) : before.lastAt();
            double earliest = next.afterReceipt() ? due - EARLY_MS : timer;
            if (next.firstAt() < earliest - CLOCK_SLACK_MS) {
                early.add(String.format("burst %d at %.3f ms, before %.3f (the one before: %.3f to %.3f, %d B, due %.3f%s)", i,
                        next.firstAt(), earliest, before.firstAt(), before.lastAt(), before.bytes(), due,
                        next.afterReceipt() ? ", a client's packet came in" : ""));
            }
            if (next.firstAt() < timer - CLOCK_SLACK_MS) {
                beforeTheTimer++;
            }
        }
        return new Pacing(whole, early, beforeTheTimer);
    }

    /** The object cold, then again on the same connection after the idle gap: the server's qlog of that connection. */
    private static QuicheQlog fetchTwiceOnOneConnection(Path qlogs, String target, int body) throws Exception {
        Ngtcp2Client.assumeInstalled(); // the kernel link's h3 tests run where the outside tools are
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(LinkProfile.ideal().withRtt(Duration.ofMillis(RTT_MS)))
                .withQuic(QuicOptions.defaults().withQlogDirectory(qlogs));
        try (KernelServer server = KernelServer.start(settings, LinkOptions.defaults()); RawH3Client client = RawH3Client.start()) {
            int port = server.server().h3Port();
            String origin = "https://" + server.host() + ":" + port;
            RawH3Client.Connection connection = client.connect(server.host(), port).get(10, TimeUnit.SECONDS);
            fetch(connection, URI.create(origin + target), body);
            Thread.sleep(IDLE_MS); // the idle gap under test, not a time asserted
            fetch(connection, URI.create(origin + target), body);
            // a request after it, so that the server takes the client's ACKs of the second response before it stops
            fetch(connection, URI.create(origin + "/option?size=100"), 100);
            connection.close();
        }
        return QuicheQlog.ofLastConnection(qlogs);
    }

    private static void fetch(RawH3Client.Connection connection, URI uri, int body) throws Exception {
        RawH3Client.Exchange exchange = connection.request(RawH3Client.get(uri));
        assertThat(exchange.response().get(30, TimeUnit.SECONDS)).isEqualTo(200);
        assertThat(exchange.bodyBytes()).isEqualTo(body);
    }
}
