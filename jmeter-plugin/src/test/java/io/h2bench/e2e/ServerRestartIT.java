package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 14: the server killed under 20 users of h2 (3 s timeouts) and started again on the same port.
 * Every sample during the outage is an error with a clear message, every user recovers, none is lost.
 */
class ServerRestartIT extends PlanAgainstServer {

    private static final int USERS = 20;
    private static final int LOOPS = 40;
    /** JTL lines written before the kill: the run is well under way. */
    private static final int BEFORE_KILL = 100;
    private static final long OUTAGE_MILLIS = 1_000;

    @Test
    void shouldReportTheOutageAndRecoverWhenTheServerIsKilledAndRestarted() throws Exception {
        int port = server.port(Listener.H2);
        Map<String, String> properties = planProperties(LOOPS);
        properties.putAll(Map.of("threads", String.valueOf(USERS), "loops", String.valueOf(LOOPS), "pause_ms", "100",
                "scheme", "https", "port", String.valueOf(port), "path", "/small-text.txt", "http_version", "HTTP_2"));
        Path dir = HeadlessJMeter.runDirectory("fault-server-restart");
        CompletableFuture<H2BenchServer> restarted = CompletableFuture.supplyAsync(() -> killAndRestart(dir.resolve("results.jtl"), port));

        JMeterRun run = jmeter.run(Path.of(getClass().getResource("/e2e/faults.jmx").toURI()), dir, properties,
                java.time.Duration.ofMinutes(1));
        server = restarted.get(10, TimeUnit.SECONDS);

        // 3 s to connect, then 3 s of silence at most
        List<Map<String, String>> rows = FaultRuns.assertAccounted(run, USERS * LOOPS, 6_000);
        assertThat(rows).filteredOn(JtlRows::failed).as("errors during the outage").isNotEmpty();
        assertThat(FaultRuns.messages(rows)).allSatisfy(message ->
                assertThat(message).containsAnyOf("refused", "closed before the response was complete", "GOAWAY",
                        // the stop seen as a TCP reset (the stopped server's kernel answers what still arrives),
                        // or in the middle of a TLS handshake
                        "reset the stream before the response was complete (SocketException: Connection reset",
                        "failed (SSLHandshakeException: Abruptly closed by peer)",
                        // the first TLS handshakes of a cold JMeter, 20 at once, on a loaded machine
                        "within 3000 ms (connect timeout)"));
        Map<String, List<Map<String, String>>> byUser = rows.stream()
                .collect(Collectors.groupingBy(row -> row.get("threadName")));
        assertThat(byUser).hasSize(USERS).allSatisfy((user, samples) ->
                assertThat(samples.get(samples.size() - 1).get("success")).as("last sample of %s", user).isEqualTo("true"));
    }

    /** Waits for the run to be under way, stops the server, and starts it again on the same h2 port. */
    private H2BenchServer killAndRestart(Path jtl, int port) {
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (JtlRows.read(jtl).size() < BEFORE_KILL && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            server.close();
            Thread.sleep(OUTAGE_MILLIS);
            return H2BenchServer.start(ServerSettings.ephemeral().withPort(Listener.H2, port));
        } catch (Exception failure) {
            throw new IllegalStateException("restart failed: " + failure, failure);
        }
    }
}
