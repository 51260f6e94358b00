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
 * test-plans/http3-smoke.jmx in a real JMeter 5.6.3 with the shaded plugin jar: Netty relocated, its
 * quiche library renamed to the relocation's prefix and loaded from the jar, HTTP/3 straight and by
 * Alt-Svc against the project's h3 listener, and JMeter exiting on its own at the end.
 */
class Http3SmokeIT extends PlanAgainstServer {

    private static final int ITERATIONS = 3;

    @Test
    void shouldMeasureHttp3FromTheShadedJarWhenTheHttp3PlanRunsHeadless() throws Exception {
        Map<String, String> properties = planProperties(ITERATIONS);

        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("http3-smoke.jmx"), HeadlessJMeter.runDirectory("http3-smoke"),
                properties, Duration.ofMinutes(3));

        assertThat(run.timedOut()).as("JMeter must exit on its own: " + run.describe()).isFalse();
        assertThat(run.exitCode()).as(run.describe()).isZero();
        Map<String, List<Sample>> byLabel = run.samples().stream()
                .collect(Collectors.groupingBy(Sample::label, LinkedHashMap::new, Collectors.toList()));
        assertThat(byLabel.keySet()).contains("h3-alt-svc", "h3", "h3-page");
        assertThat(byLabel.values()).allSatisfy(samples -> assertThat(samples).allSatisfy(sample -> {
            assertThat(sample.success()).as("%s failed: %s", sample.label(), sample.failureMessage()).isTrue();
            assertThat(sample.responseCode()).isEqualTo("200");
            assertThat(sample.sentBytes()).isPositive();
        }));
        // h2 for the first sample, then a QUIC handshake on the second (h3 by Alt-Svc, not h2 reused),
        // then that QUIC connection reused
        List<Sample> altSvc = byLabel.get("h3-alt-svc");
        assertThat(altSvc).hasSize(ITERATIONS);
        assertThat(altSvc.get(0).connect()).isPositive();
        assertThat(altSvc.get(1).connect()).isPositive();
        assertThat(altSvc.subList(2, ITERATIONS)).extracting(Sample::connect).containsOnly(0L);
        // the other user: its own QUIC handshake, then the page on that connection
        assertThat(byLabel.get("h3")).singleElement().extracting(Sample::connect).isNotEqualTo(0L);
        assertThat(byLabel.get("h3-page")).singleElement().extracting(Sample::connect).isEqualTo(0L);
        assertThat(server.connectionsAccepted(Listener.H2)).isEqualTo(1);
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
    }
}
