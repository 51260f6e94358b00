package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What every fault run must show: JMeter exits 0 in time, one JTL line per sample, clear one-line errors. */
final class FaultRuns {

    /** JMeter's own prefix for an exception instead of an HTTP response. */
    static final String NON_HTTP = "Non HTTP response message: ";

    private FaultRuns() {
    }

    /** Runs the faults plan; JMeter gets a minute at most, far beyond any sample's timeout. */
    static JMeterRun run(HeadlessJMeter jmeter, String name, Map<String, String> properties) throws Exception {
        Path plan = Path.of(FaultRuns.class.getResource("/e2e/faults.jmx").toURI());
        return jmeter.run(plan, HeadlessJMeter.runDirectory(name), properties, Duration.ofMinutes(1));
    }

    /**
     * Exit 0, exactly {@code samples} lines, no sample longer than {@code timeoutMillis} (connect plus
     * response timeout: the response timeout counts from the written request) plus a margin for a
     * loaded machine, and each failure one line of text naming what went wrong.
     */
    static List<Map<String, String>> assertAccounted(JMeterRun run, int samples, long timeoutMillis) throws Exception {
        List<Map<String, String>> rows = assertRun(run, samples, timeoutMillis);
        assertThat(rows).filteredOn(JtlRows::failed).allSatisfy(row -> {
            assertThat(row.get("responseMessage")).as("message of a failed sample").startsWith(NON_HTTP).doesNotContain("\n");
            assertThat(row.get("responseMessage").length()).isGreaterThan(NON_HTTP.length() + 20);
        });
        return rows;
    }

    /** Exit 0 in time, exactly {@code samples} lines, none longer than the timeout (plus a margin), a clean log. */
    static List<Map<String, String>> assertRun(JMeterRun run, int samples, long timeoutMillis) throws Exception {
        assertThat(run.timedOut()).as("JMeter must exit on its own: " + run.describe()).isFalse();
        assertThat(run.exitCode()).as(run.describe()).isZero();
        List<Map<String, String>> rows = JtlRows.read(run.jtl());
        assertThat(rows).as("JTL lines against samples started").hasSize(samples);
        assertThat(rows).allSatisfy(row ->
                assertThat(Long.parseLong(row.get("elapsed"))).as("elapsed of %s", row).isLessThan(timeoutMillis + 2_000));
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
        return rows;
    }

    static List<String> messages(List<Map<String, String>> rows) {
        return rows.stream().filter(JtlRows::failed).map(row -> row.get("responseMessage")).toList();
    }
}
