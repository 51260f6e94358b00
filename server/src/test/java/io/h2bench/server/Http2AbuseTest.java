package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * HTTP/2 attacks from a raw client on the h2c listener (the h2 listener runs the same session code
 * behind TLS). Each must end in a clean RST_STREAM, GOAWAY or close while other clients are served.
 */
class Http2AbuseTest extends AbuseTestBase {

    private static final Duration ANSWER = Duration.ofSeconds(10);
    private static final int PROTOCOL_ERROR = 0x1;
    private static final int REFUSED_STREAM = 0x7;
    private static final int ENHANCE_YOUR_CALM = 0xb;
    private static final int BODYLESS_CONNECTIONS = 3;
    private static final int BODYLESS_STREAMS = 100;
    /** After the hold: the frames the server sent meanwhile are read, and a close or a GOAWAY still on its way. */
    private static final Duration AFTER_HOLD = Duration.ofSeconds(1);

    @Test
    void shouldSendGoAwayWhenStreamsAreOpenedAndResetInATightLoop() throws Exception {
        String end = bystanders.survive(Listener.H2C, () -> {
            try (RawH2 attacker = RawH2.connect(server.port(Listener.H2C))) {
                byte[] request = RawH2.get("/small-text.txt");
                untilRefused(() -> {
                    for (int stream = 1; stream < 40_000; stream += 2) {
                        attacker.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, stream, request);
                        attacker.reset(stream, RawH2.CANCEL);
                        attacker.flush();
                    }
                });
                return attacker.awaitEnd(ANSWER, false);
            }
        });

        // The server closes right after its GOAWAY while the attacker's frames are still unread, so its
        // kernel may answer with a TCP reset, which can discard the GOAWAY before the attacker reads it.
        assertThat(end).as("Jetty's rate control (CVE-2023-44487)")
                .matches("GOAWAY " + ENHANCE_YOUR_CALM + "|closed.*");
    }

    @Test
    void shouldKeepTheConnectionWhenAClientResetsItsPushedStreamsAgainAndAgain() throws Exception {
        String end = bystanders.survive(Listener.H2C, () -> {
            try (RawH2 client = RawH2.connect(server.port(Listener.H2C))) {
                client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1,
                        RawH2.get("/articles?count=25", "prefer-push", "item"));
                client.flush();
                assertThat(client.awaitFrames(RawH2.PUSH_PROMISE, 25, ANSWER)).as("25 pushes promised").isTrue();
                // Pushed streams 2 to 50 refused 4,000 times over: 100,000 resets, none of a stream the client opened.
                untilRefused(() -> {
                    for (int round = 0; round < 4_000; round++) {
                        for (int pushed = 2; pushed <= 50; pushed += 2) {
                            client.reset(pushed, REFUSED_STREAM);
                        }
                    }
                    client.flush();
                });
                return client.awaitEnd(Duration.ofSeconds(2), false);
            }
        });

        assertThat(end).as("resets of pushed streams are not rapid reset (SuspiciousFramesRateControl)").isEqualTo("nothing");
    }

    @Test
    void shouldEndTheConnectionWhenContinuationFramesNeverEnd() throws Exception {
        String end = bystanders.survive(Listener.H2C, () -> {
            try (RawH2 attacker = RawH2.connect(server.port(Listener.H2C))) {
                attacker.frame(RawH2.HEADERS, 0, 1, RawH2.get("/small-text.txt"));
                byte[] field = RawH2.field("x-flood", 1000);
                untilRefused(() -> {
                    for (int sent = 0; sent < 100_000; sent++) {
                        attacker.frame(RawH2.CONTINUATION, 0, 1, field);
                    }
                    attacker.flush();
                });
                return attacker.awaitEnd(ANSWER, true);
            }
        });

        assertThat(end).as("the header list outgrew the cap").isEqualTo("GOAWAY " + PROTOCOL_ERROR);
    }

    @Test
    void shouldEndTheConnectionWhenEmptyContinuationFramesNeverEnd() throws Exception {
        String end = bystanders.survive(Listener.H2C, () -> {
            try (RawH2 attacker = RawH2.connect(server.port(Listener.H2C))) {
                attacker.frame(RawH2.HEADERS, 0, 1, RawH2.get("/small-text.txt"));
                untilRefused(() -> {
                    for (int sent = 0; sent < 200_000; sent++) {
                        attacker.frame(RawH2.CONTINUATION, 0, 1, new byte[0]);
                    }
                    attacker.flush();
                });
                return attacker.awaitEnd(ANSWER, true);
            }
        });

        assertThat(end).as("Jetty's rate control counts empty CONTINUATION frames").isEqualTo("GOAWAY " + ENHANCE_YOUR_CALM);
    }

    @Test
    void shouldRefuseTheRequestWhenItsHeadersExceedTheCap() throws Exception {
        String end = bystanders.survive(Listener.H2C, () -> {
            try (RawH2 attacker = RawH2.connect(server.port(Listener.H2C))) {
                byte[] request = RawH2.get("/small-text.txt");
                byte[] field = RawH2.field("x-big", 15_000);
                untilRefused(() -> {
                    attacker.frame(RawH2.HEADERS, 0, 1, request);
                    for (int i = 0; i < 4; i++) {
                        attacker.frame(RawH2.CONTINUATION, i == 3 ? RawH2.END_HEADERS : 0, 1, field);
                    }
                    attacker.flush();
                });
                return attacker.awaitEnd(ANSWER, true);
            }
        });

        assertThat(end).as("header list over the cap: HPACK session error").isEqualTo("GOAWAY " + PROTOCOL_ERROR);
    }

    @Test
    void shouldRefuseStreamsBeyondTheLimitWhenTenThousandAreOpenedAtOnce() throws Exception {
        String end = bystanders.survive(Listener.H2C, () -> {
            try (RawH2 attacker = RawH2.connect(server.port(Listener.H2C))) {
                byte[] request = RawH2.get("/option?size=0&delay=1000");
                untilRefused(() -> {
                    for (int i = 0, stream = 1; i < 10_000; i++, stream += 2) {
                        attacker.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, stream, request);
                    }
                    attacker.flush();
                });
                return attacker.awaitEnd(ANSWER, true);
            }
        });

        assertThat(end).as("streams beyond SETTINGS_MAX_CONCURRENT_STREAMS").isEqualTo("RST_STREAM " + REFUSED_STREAM);
    }

    /**
     * Streams that announce a body (HEADERS without END_STREAM, content-length 1) and never send it, to
     * a small resource that ignores bodies (its answers fit the flow-control windows, so no write waits):
     * the server must not give each of them a thread that waits for the
     * body, or 300 such streams on three connections take all 200 of its threads and nobody else is
     * served (bystanders timed out before BodyFirstFilter bounded its waits).
     */
    @Test
    void shouldServeOthersWhileStreamsAnnounceABodyThatNeverComes() throws Exception {
        String end = bystanders.survive(Listener.H2C, (inPlace, measured) -> {
            List<RawH2> attackers = new ArrayList<>();
            try {
                for (int connection = 0; connection < BODYLESS_CONNECTIONS; connection++) {
                    RawH2 attacker = RawH2.connect(server.port(Listener.H2C));
                    attackers.add(attacker);
                    byte[] request = RawH2.get("/articles/1", "content-length", "1");
                    for (int i = 0, stream = 1; i < BODYLESS_STREAMS; i++, stream += 2) {
                        attacker.frame(RawH2.HEADERS, RawH2.END_HEADERS, stream, request);
                    }
                    attacker.flush();
                }
                inPlace.countDown();
                // Held until the bystanders are done: a starved server fails them (10 s timeout each), not this wait.
                measured.await();
                return attackers.get(0).awaitEnd(AFTER_HOLD, false);
            } finally {
                for (RawH2 attacker : attackers) {
                    attacker.close();
                }
            }
        });

        assertThat(end).as("the attacker's first connection while held").isIn("nothing", "GOAWAY 0");
    }

    /** Sends until done or until the server shuts the connection on us, which is an answer too. */
    private static void untilRefused(Sending sending) {
        try {
            sending.run();
        } catch (IOException e) {
            // The server closed the connection mid-flood; awaitEnd reports it.
        }
    }

    private interface Sending {
        void run() throws IOException;
    }
}
