package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import io.h2bench.report.Comparison;
import io.h2bench.report.ComparisonReport;
import io.h2bench.report.RunConditions;
import io.h2bench.report.Sample;

/** Seed 000's plan, shortened to 2 cold iterations, then the comparison report of its JTL. */
class CompareProtocolsIT extends PlanAgainstServer {

    private static final List<String> OBJECTS = List.of("page", "inline", "small-text", "large-text");

    @Test
    void shouldFillEveryRowOfSeedTableWhenComparePlanRunsHeadless() throws Exception {
        Path dir = HeadlessJMeter.runDirectory("compare-protocols");
        Map<String, String> properties = planProperties(2);
        properties.put("cold", "true");

        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("compare-protocols.jmx"), dir, properties, Duration.ofMinutes(4));
        List<Path> written = ComparisonReport.write(run.jtl(), dir, RunConditions.unknown());

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
        List<String> csv = Files.readAllLines(written.get(0));
        // the 5 page loads of the warm-up thread group are in the JTL but not in the comparison
        assertThat(run.samples()).filteredOn(s -> s.label().matches(Comparison.WARM_UP_PREFIX + "\\S+ page")).hasSize(5);
        assertThat(csv).hasSize(1 + 4 * 5 + 1);
        for (String object : OBJECTS) {
            for (String protocol : List.of("h1", "h1-tls", "h2", "h2c", "h3")) {
                assertThat(csv).anyMatch(line -> line.startsWith(object + "," + protocol + ",") && line.contains(",2,0,"));
            }
        }
        assertThat(csv).anyMatch(line -> line.startsWith("page,h2-push,") && line.contains(",2,0,"));
        // h3 follows h2c in every object's rows
        for (String object : OBJECTS) {
            assertThat(csv.stream().filter(line -> line.startsWith(object + ",")).map(line -> line.split(",")[1]))
                    .containsSubsequence("h2c", "h3");
        }
        assertThat(written.get(2)).isNotEmptyFile();
        // cold: every page load opens its connection again, and a TLS or QUIC connect is never 0 ms
        assertThat(run.samples()).filteredOn(s -> s.label().matches("(h1-tls|h2|h2-push|h3) [a-z-]+"))
                .hasSize(2 * 13)
                .allSatisfy(s -> assertThat(s.connect()).as("%s Connect", s.label()).isPositive());
    }

    @Test
    void shouldSkipEveryH3SamplerWhenH3PropertyIsFalse() throws Exception {
        Path dir = HeadlessJMeter.runDirectory("compare-protocols-no-h3");
        Map<String, String> properties = planProperties(1);
        // what bin/compare passes when the server has no h3 listener (behind the byte proxy)
        properties.put("h3", "false");
        properties.put("h3_port", "9"); // nothing listens there: an h3 sampler that ran would fail

        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("compare-protocols.jmx"), dir, properties, Duration.ofMinutes(4));

        assertThat(run.exitCode()).as(run.describe()).isZero();
        List<Sample> samples = run.samples();
        assertThat(samples).extracting(Sample::label).noneMatch(label -> label.matches("(warm-up )?h3 .*"))
                .contains("h1 page", "h2c large-text", "h2-push page");
        assertThat(samples).allSatisfy(sample -> assertThat(sample.success())
                .as("%s failed: %s", sample.label(), sample.failureMessage()).isTrue());
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
    }
}
