package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Listener;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 4: a real JMeter running into peers that misbehave. Each run: every sample started
 * has its JTL line, none outlives its timeout, each failure says in one line what happened, and
 * JMeter exits 0.
 */
class SamplerFaultsIT extends PlanAgainstServer {

    private static final int USERS = 2;
    private static final int LOOPS = 3;
    /** Response timeout, and connect timeout of the silent TLS peer. */
    private static final long TIMEOUT = 1_000;
    /** Connect timeout elsewhere: a cold JMeter's first TLS handshakes on a loaded machine took over 1 s. */
    private static final long CONNECT_TIMEOUT = 3_000;
    /** The longest a sample may take: to the written request, then silence. */
    private static final long LONGEST = CONNECT_TIMEOUT + TIMEOUT;

    private MisbehavingPeers peers;

    @BeforeEach
    void startPeers() throws Exception {
        peers = new MisbehavingPeers();
    }

    @AfterEach
    void stopPeers() throws Exception {
        peers.close();
    }

    private Map<String, String> against(String scheme, int port, String path, String version) {
        Map<String, String> properties = planProperties(LOOPS);
        properties.putAll(Map.of("threads", String.valueOf(USERS), "loops", String.valueOf(LOOPS),
                "scheme", scheme, "port", String.valueOf(port), "path", path, "http_version", version,
                "connect_timeout", String.valueOf(CONNECT_TIMEOUT), "response_timeout", String.valueOf(TIMEOUT)));
        return properties;
    }

    /** Runs the plan; every sample must be accounted for and have failed. Returns their messages. */
    private List<String> allFailed(String name, Map<String, String> properties) throws Exception {
        List<Map<String, String>> rows = FaultRuns.assertAccounted(FaultRuns.run(jmeter, name, properties), USERS * LOOPS, LONGEST);
        assertThat(rows).allMatch(JtlRows::failed);
        return FaultRuns.messages(rows);
    }

    @Test
    void shouldFailEachPageLoadWithTheGoAwayWhenTheServerSendsGoAwayMidPage() throws Exception {
        Map<String, String> properties = against("http", peers.h2cPort(), "/page", "H2C");
        properties.put("embedded", "true");
        // One line per page load: the resources stay inside the page sample.
        properties.put("jmeter.save.saveservice.subresults", "false");

        JMeterRun run = FaultRuns.run(jmeter, "fault-goaway-page", properties);

        List<Map<String, String>> rows = FaultRuns.assertRun(run, USERS * LOOPS, LONGEST);
        assertThat(rows).allMatch(JtlRows::failed);
        assertThat(FaultRuns.messages(rows)).allSatisfy(message -> assertThat(message)
                .startsWith("Embedded resource download error:").contains("/item/").doesNotContain("\n")
                // the GOAWAY, or the TCP close right behind it when a request was still being written
                .containsAnyOf(FaultRuns.NON_HTTP + "The server sent GOAWAY (PROTOCOL_ERROR",
                        FaultRuns.NON_HTTP + "The connection to http://127.0.0.1:" + peers.h2cPort() + " closed before"));
    }

    @Test
    void shouldFailEachSampleWithTheResetWhenTheServerResetsMidBody() throws Exception {
        List<String> messages = allFailed("fault-reset", against("http", peers.h2cPort(), "/reset", "H2C"));

        assertThat(messages).allSatisfy(message -> assertThat(message).contains("reset the stream"));
    }

    @Test
    void shouldFailEachSampleAtTheResponseTimeoutWhenTheServerStallsAfterHeaders() throws Exception {
        List<String> messages = allFailed("fault-stall", against("http", peers.h2cPort(), "/stall", "H2C"));

        assertThat(messages).allSatisfy(message -> assertThat(message).contains("within 1000 ms (response timeout"));
    }

    @Test
    void shouldFailEachSampleAtTheConnectTimeoutWhenTheTlsPeerNeverAnswers() throws Exception {
        Map<String, String> properties = against("https", peers.silentTlsPort(), "/", "HTTP_2");
        properties.put("connect_timeout", String.valueOf(TIMEOUT));

        List<String> messages = allFailed("fault-silent-tls", properties);

        assertThat(messages).allSatisfy(message -> assertThat(message).contains("within 1000 ms (connect timeout)"));
    }

    /** HTTP/2 chosen explicitly must not turn into HTTP/1.1: each sample fails before its request is written. */
    @Test
    void shouldFailEachSampleWithOneLineWhenHttp2IsChosenAndAlpnOffersNoH2() throws Exception {
        int port = server.port(Listener.H1_TLS);

        List<String> messages = allFailed("fault-alpn-h1", against("https", port, "/small-text.txt", "HTTP_2"));

        assertThat(messages).allSatisfy(message -> assertThat(message).isEqualTo(FaultRuns.NON_HTTP
                + "The server https://127.0.0.1:" + port + " does not offer h2 over ALPN (it chose http/1.1);"
                + " pick HTTP/1.1 or 'By scheme' to allow it"));
        assertThat(server.requestsReceived("/small-text.txt")).isZero();
    }

    /** "By scheme" negotiates as a browser does (sampler and troubleshooting pages): ALPN's http/1.1 is kept. */
    @Test
    void shouldFallBackToHttp11ByScheme() throws Exception {
        Map<String, String> properties = against("https", server.port(Listener.H1_TLS), "/small-text.txt", "");
        properties.remove("http_version");

        List<Map<String, String>> rows = FaultRuns.assertAccounted(FaultRuns.run(jmeter, "fault-alpn-by-scheme", properties),
                USERS * LOOPS, LONGEST);

        assertThat(rows).noneMatch(JtlRows::failed);
        assertThat(server.requestsReceived("/small-text.txt")).isEqualTo(USERS * LOOPS);
        assertThat(server.connectionsAccepted(Listener.H1_TLS)).isEqualTo(USERS);
    }
}
