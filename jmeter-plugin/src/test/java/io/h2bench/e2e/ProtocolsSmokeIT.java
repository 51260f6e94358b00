package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.h2bench.report.Sample;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;

/**
 * Issue 3's end-to-end test: test-plans/protocols-smoke.jmx in a real JMeter 5.6.3 against the
 * project's server on free ports, read back from the JTL and jmeter.log.
 */
class ProtocolsSmokeIT {

    private static final int ITERATIONS = 5;
    private static final long SMALL_TEXT_BYTES = 44 * 1024;

    private final HeadlessJMeter jmeter = HeadlessJMeter.assembled();
    private H2BenchServer server;

    @BeforeEach
    void startServer() throws Exception {
        assumeTrue(jmeter.pluginHasSampler(), "the plugin jar has no " + HeadlessJMeter.SAMPLER_CLASS + " yet");
        server = H2BenchServer.start(ServerSettings.ephemeral());
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldMeasureEveryProtocolWithoutErrorsWhenSmokePlanRunsHeadless() throws Exception {
        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("protocols-smoke.jmx"),
                HeadlessJMeter.runDirectory("protocols-smoke"), planProperties(server), Duration.ofMinutes(3));

        assertThat(run.timedOut()).as("JMeter must exit on its own: " + run.describe()).isFalse();
        assertThat(run.exitCode()).as(run.describe()).isZero();
        List<Sample> samples = run.samples();
        Map<String, List<Sample>> byLabel = samples.stream()
                .collect(Collectors.groupingBy(Sample::label, LinkedHashMap::new, Collectors.toList()));
        assertThat(byLabel.keySet()).containsExactlyInAnyOrder("h1", "h1-tls", "h2", "h2c");
        assertThat(byLabel.values()).allSatisfy(perLabel -> assertThat(perLabel).hasSize(ITERATIONS));
        assertThat(samples).allSatisfy(sample -> {
            assertThat(sample.success()).as("%s failed: %s", sample.label(), sample.failureMessage()).isTrue();
            assertThat(sample.responseCode()).as(sample.label()).isEqualTo("200");
            assertThat(sample.latency()).as("%s Latency <= elapsed", sample.label()).isLessThanOrEqualTo(sample.elapsed());
            assertThat(sample.sentBytes()).as("%s sentBytes", sample.label()).isPositive();
            assertThat(sample.bytes()).as("%s received bytes", sample.label()).isGreaterThan(SMALL_TEXT_BYTES);
        });
        byLabel.forEach(ProtocolsSmokeIT::assertConnectOnlyOnFirstSample);
        for (Listener listener : Listener.values()) {
            assertThat(server.connectionsAccepted(listener)).as("connections opened to " + listener.id()).isEqualTo(1);
        }
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
        assertThat(run.logLines()).as("leftover threads kept JMeter alive")
                .noneMatch(line -> line.contains("The JVM should have exited but did not"));
    }

    /**
     * One user reuses its connection, so only the first sample per protocol may carry Connect.
     * With TLS that first Connect holds a handshake and is never 0 ms; a clear-text TCP connect on
     * loopback can take well under 1 ms, so there the connection count at the server is the proof.
     */
    private static void assertConnectOnlyOnFirstSample(String label, List<Sample> samples) {
        if (label.equals("h1-tls") || label.equals("h2")) {
            assertThat(samples.get(0).connect()).as("%s first sample Connect", label).isPositive();
        }
        assertThat(samples.subList(1, samples.size())).extracting(Sample::connect)
                .as("%s Connect after the first sample", label).containsOnly(0L);
    }

    static Map<String, String> planProperties(H2BenchServer server) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("host", "127.0.0.1");
        properties.put("h1_port", String.valueOf(server.port(Listener.H1)));
        properties.put("tls_port", String.valueOf(server.port(Listener.H1_TLS)));
        properties.put("h2_port", String.valueOf(server.port(Listener.H2)));
        properties.put("h2c_port", String.valueOf(server.port(Listener.H2C)));
        properties.put("iterations", String.valueOf(ITERATIONS));
        return properties;
    }
}
