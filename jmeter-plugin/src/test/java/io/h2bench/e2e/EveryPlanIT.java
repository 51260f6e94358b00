package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.h2bench.report.Sample;
import io.h2bench.server.Listener;

/**
 * The plans that the focused tests (CompareProtocolsIT, NetworkSweepIT, ProtocolsSmokeIT,
 * Http3SmokeIT) do not cover, each run once, short, headless: they load in JMeter 5.6.3, every
 * sample succeeds and jmeter.log stays clean.
 */
class EveryPlanIT extends PlanAgainstServer {

    @ParameterizedTest
    @ValueSource(strings = {"rest-collection.jmx", "resource-sweep.jmx", "load.jmx", "throughput.jmx", "soak.jmx"})
    void shouldRunWithoutErrorsWhenPlanRunsHeadlessOnce(String plan) throws Exception {
        Map<String, String> properties = planProperties(1);
        if (plan.equals("load.jmx")) {
            properties.putAll(Map.of("threads", "3", "ramp", "0", "duration", "3", "scheme", "https",
                    "port", String.valueOf(server.port(Listener.H2)), "http_version", "HTTP_2"));
        }

        if (plan.equals("throughput.jmx")) {
            // both thread groups, the h2bench sampler's and JMeter's own HttpClient4 sampler's, briefly
            properties.putAll(Map.of("h2bench_users", "2", "jmeter_users", "2", "ramp", "0", "duration", "2",
                    "port", String.valueOf(server.port(Listener.H1_TLS))));
        }

        if (plan.equals("soak.jmx")) {
            // benchmarks/soak.sh's plan, three users for three seconds instead of 200 for ten minutes
            properties.putAll(Map.of("threads", "3", "ramp", "0", "duration", "3", "think_ms", "100",
                    "port", String.valueOf(server.port(Listener.H2))));
        }

        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan(plan),
                HeadlessJMeter.runDirectory(plan.replace(".jmx", "")), properties, Duration.ofMinutes(4));

        assertThat(run.exitCode()).as(run.describe()).isZero();
        List<Sample> samples = run.samples();
        assertThat(samples).isNotEmpty().allSatisfy(sample -> assertThat(sample.success())
                .as("%s failed: %s", sample.label(), sample.failureMessage()).isTrue());
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
    }
}
