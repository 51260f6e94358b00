package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import io.h2bench.report.ComparisonReport;
import io.h2bench.report.RunConditions;
import io.h2bench.report.Sample;

/**
 * Seeds 001/002's plan, one short cell on loopback, as benchmarks/network-sweep.sh runs it per cell:
 * the page over h1, h2c, h1-tls, h2 and h3, and the comparison row of each that the sweep's h3 columns
 * are read from; without an h3 listener, no h3 sampler runs and the report says why.
 */
class NetworkSweepIT extends PlanAgainstServer {

    private static final int ITERATIONS = 2;
    private static final List<String> PROTOCOLS = List.of("h1", "h2c", "h1-tls", "h2", "h3");

    @Test
    void shouldLoadThePageOverH3BesideTheTcpProtocolsWhenTheServerHasAnH3Listener() throws Exception {
        assumeTrue(hasH3(), () -> "the server has no h3 listener: " + server.h3NotStartedReason());
        Path dir = HeadlessJMeter.runDirectory("network-sweep");

        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("network-sweep.jmx"), dir, planProperties(ITERATIONS),
                Duration.ofMinutes(4));

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
        List<Sample> samples = run.samples();
        assertThat(samples).allSatisfy(sample -> assertThat(sample.success())
                .as("%s failed: %s", sample.label(), sample.failureMessage()).isTrue());
        for (String protocol : PROTOCOLS) {
            assertThat(samples).as(protocol).filteredOn(s -> s.label().equals(protocol + " page")).hasSize(ITERATIONS);
            assertThat(samples).as(protocol).filteredOn(s -> s.label().equals("warm-up " + protocol + " page")).hasSize(1);
        }
        // cold (the plan's default): every h3 load makes its own QUIC handshake, as every TCP load its connect
        assertThat(samples).filteredOn(s -> s.label().equals("h3 page"))
                .allSatisfy(s -> assertThat(s.connect()).as("h3 page Connect").isPositive());
        // the sweep's h3 and h3 / h2 columns are the comparison.csv rows 'page,h3' and 'page,h2'
        List<String> csv = Files.readAllLines(ComparisonReport.write(run.jtl(), dir, RunConditions.unknown()).get(0));
        for (String protocol : PROTOCOLS) {
            assertThat(csv).as(protocol).anyMatch(line -> line.startsWith("page," + protocol + ",")
                    && line.contains("," + ITERATIONS + ",0,"));
        }
    }

    @Test
    void shouldSkipEveryH3SamplerAndSayWhyWhenH3PropertyIsFalse() throws Exception {
        Path dir = HeadlessJMeter.runDirectory("network-sweep-no-h3");
        Map<String, String> properties = planProperties(1);
        // what network-sweep.sh passes when the server has no h3 listener (ENGINE=proxy or auto's fallback)
        properties.put("h3", "false");
        properties.put("h3_port", "9"); // nothing listens there: an h3 sampler that ran would fail
        String reason = "the byte proxy engine relays TCP only";

        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("network-sweep.jmx"), dir, properties, Duration.ofMinutes(4));

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
        List<Sample> samples = run.samples();
        assertThat(samples).extracting(Sample::label).noneMatch(label -> label.matches("(warm-up )?h3 page.*"))
                .contains("h1 page", "h2c page", "h1-tls page", "h2 page");
        assertThat(samples).allSatisfy(sample -> assertThat(sample.success())
                .as("%s failed: %s", sample.label(), sample.failureMessage()).isTrue());
        List<Path> written = ComparisonReport.write(run.jtl(), dir, new RunConditions("", "cold", RunConditions.SITE_EXPLANATION, reason));
        assertThat(Files.readAllLines(written.get(0))).noneMatch(line -> line.startsWith("page,h3,"));
        assertThat(Files.readString(written.get(1))).contains("no h3: " + reason);
    }
}
