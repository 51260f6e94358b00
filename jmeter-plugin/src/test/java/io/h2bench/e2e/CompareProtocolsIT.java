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

/** Seed 000's plan, shortened to 2 cold iterations, then the comparison report of its JTL. */
class CompareProtocolsIT extends PlanAgainstServer {

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
        // the 4 page loads of the warm-up thread group are in the JTL but not in the comparison
        assertThat(run.samples()).filteredOn(s -> s.label().matches(Comparison.WARM_UP_PREFIX + "\\S+ page")).hasSize(4);
        assertThat(csv).hasSize(1 + 17);
        for (String object : List.of("page", "inline", "small-text", "large-text")) {
            for (String protocol : List.of("h1", "h1-tls", "h2", "h2c")) {
                assertThat(csv).anyMatch(line -> line.startsWith(object + "," + protocol + ",") && line.contains(",2,0,"));
            }
        }
        assertThat(csv).anyMatch(line -> line.startsWith("page,h2-push,") && line.contains(",2,0,"));
        assertThat(written.get(2)).isNotEmptyFile();
        // cold: every page load opens its connection again, and a TLS connect is never 0 ms
        assertThat(run.samples()).filteredOn(s -> s.label().matches("(h1-tls|h2|h2-push) [a-z-]+"))
                .hasSize(2 * 9)
                .allSatisfy(s -> assertThat(s.connect()).as("%s Connect", s.label()).isPositive());
    }
}
