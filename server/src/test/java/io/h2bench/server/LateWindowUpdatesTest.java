package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * A client that credits a stream as it reads it (Go's net/http sends a WINDOW_UPDATE for every few
 * kilobytes it reads) sends its last credits after the server has ended the stream: on a link with a
 * 100 ms round trip, a round trip's worth of a large download, hundreds of frames in a burst. RFC
 * 9113 section 6.9 says such frames must not be treated as an error. Jetty counted them as
 * suspicious and, past 128 a second, ended the connection with GOAWAY(ENHANCE_YOUR_CALM): Go's client
 * lost its connection after a 10 MiB download on the kernel link (benchmarks/truth.sh).
 */
class LateWindowUpdatesTest extends AbuseTestBase {

    private static final Duration ANSWER = Duration.ofSeconds(10);
    private static final int LATE_CREDITS = 1_000;

    @Test
    void shouldKeepTheConnectionWhenCreditsArriveForAStreamTheServerHasEnded() throws Exception {
        try (RawH2 client = RawH2.connect(server.port(Listener.H2C))) {
            client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, RawH2.get("/small-text.txt"));
            client.flush();
            assertThat(client.awaitEndOfStream(1, ANSWER)).as("the first response, whole").isTrue();

            client.windowUpdate(0, 1 << 20); // the connection's window, for the second response
            for (int credit = 0; credit < LATE_CREDITS; credit++) {
                client.windowUpdate(1, 4_096);
            }
            client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 3, RawH2.get("/small-text.txt"));
            client.flush();

            assertThat(client.awaitEndOfStream(3, ANSWER))
                    .as("a second request answered on the same connection after %d late WINDOW_UPDATEs", LATE_CREDITS)
                    .isTrue();
            assertThat(client.awaitEnd(Duration.ofMillis(500), false)).as("no GOAWAY").isEqualTo("nothing");
        }
    }

    @Test
    void shouldStillEndTheConnectionWhenZeroCreditsFlood() throws Exception {
        // RFC 9113 section 6.9: an increment of 0 is an error; a flood of them stays suspicious.
        String end = bystanders.survive(Listener.H2C, () -> {
            try (RawH2 attacker = RawH2.connect(server.port(Listener.H2C))) {
                try {
                    attacker.frame(RawH2.HEADERS, RawH2.END_HEADERS, 1, RawH2.get("/small-text.txt"));
                    for (int credit = 0; credit < LATE_CREDITS; credit++) {
                        attacker.windowUpdate(1, 0);
                    }
                    attacker.flush();
                } catch (SocketException reset) {
                    // The server ended the connection before the flood was all written (seen on busy cores).
                    return "closed while flooding (" + reset.getMessage() + ")";
                }
                return attacker.awaitEnd(ANSWER, false);
            }
        });
        assertThat(end).matches("GOAWAY 11|closed.*");
    }
}
