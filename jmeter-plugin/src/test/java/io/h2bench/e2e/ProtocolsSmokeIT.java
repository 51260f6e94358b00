package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

import io.h2bench.report.Sample;
import io.h2bench.server.Listener;

/**
 * Issue 3's end-to-end test: test-plans/protocols-smoke.jmx in a real JMeter 5.6.3 against the
 * project's server on free ports, read back from the JTL and jmeter.log.
 */
class ProtocolsSmokeIT extends PlanAgainstServer {

    private static final int ITERATIONS = 5;
    private static final long SMALL_TEXT_BYTES = 44 * 1024;

    @Test
    void shouldMeasureEveryProtocolWithoutErrorsWhenSmokePlanRunsHeadless() throws Exception {
        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("protocols-smoke.jmx"),
                HeadlessJMeter.runDirectory("protocols-smoke"), planProperties(ITERATIONS), Duration.ofMinutes(3));

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
}
