package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak's verdict rule (benchmarks/soak-report.py) on the soaks kept on the site: the run with the
 * client leak must fail on JMeter's heap, the run after the fix must pass although the server's
 * thread pool was still filling up for its first 205 s. A change of the rule that flips either fails here.
 */
class SoakRuleTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path RUNS = ROOT.resolve("src/site/resources/runs");
    private static final Pattern COUNTED = Pattern.compile("^samples: JMeter counted (\\d+)", Pattern.MULTILINE);

    @TempDir
    Path dir;

    record Report(int exit, String output) {
        String line(String series) {
            return output.lines().filter(l -> l.startsWith(series)).findFirst().orElseThrow(
                    () -> new AssertionError("no line for " + series + " in:\n" + output));
        }
    }

    @BeforeAll
    static void needsPython() {
        boolean installed = runs("python3", "--version");
        if (!installed && "true".equals(System.getenv("CI"))) {
            fail("python3 is not installed; bin/test installs it");
        }
        assumeTrue(installed, "python3 is not installed");
    }

    @Test
    void shouldFailOnJMeterHeapWhenTheClientLeaks() throws Exception {
        Report report = report("soak-2026-11-23-10min", 0);

        assertThat(report.exit()).isEqualTo(1);
        assertThat(report.line("jmeter heap after GC")).endsWith("NOT SETTLED");
        assertThat(report.output().lines().filter(l -> l.endsWith("NOT SETTLED"))).hasSize(1);
        assertThat(report.output()).contains("23 failed  NOT OK").contains("soak: FAIL");
    }

    @Test
    void shouldPassWhenTheServerPoolFillsUpAndThenStays() throws Exception {
        Report report = report("soak-2026-11-23-10min-after", 0);

        assertThat(report.exit()).as(report.output()).isZero();
        assertThat(report.line("server threads")).contains("settled at 245 s").endsWith("ok");
        assertThat(report.line("jmeter heap after GC")).endsWith("ok");
        assertThat(report.output()).contains("(0 lost), 0 failed  ok").contains("soak: pass");
    }

    @Test
    void shouldFailOnJMeterHeapWhenAShortRunLeaks() throws Exception {
        Report report = report("soak-2026-11-23-3min", 0);

        assertThat(report.exit()).isEqualTo(1);
        assertThat(report.line("jmeter heap after GC")).endsWith("NOT SETTLED");
        assertThat(report.line("server threads")).endsWith("ok");
        assertThat(report.output()).contains("(0 lost), 0 failed  ok");
    }

    @Test
    void shouldFailWhenTheJtlHoldsFewerSamplesThanJMeterCounted() throws Exception {
        Report report = report("soak-2026-11-23-10min-after", 1);

        assertThat(report.exit()).isEqualTo(1);
        assertThat(report.output()).contains("(1 lost), 0 failed  NOT OK").contains("soak: FAIL");
    }

    /** Runs the report on a kept run, telling it JMeter counted {@code extra} more samples than it did. */
    private Report report(String run, int extra) throws Exception {
        Path kept = RUNS.resolve(run);
        Matcher counted = COUNTED.matcher(Files.readString(kept.resolve("summary.txt")));
        assertThat(counted.find()).as("a samples line in " + kept.resolve("summary.txt")).isTrue();
        List<String> command = new ArrayList<>(List.of("python3", ROOT.resolve("benchmarks/soak-report.py").toString(),
                kept.resolve("soak.csv").toString(), dir.resolve("soak.svg").toString(),
                "--jtl", kept.resolve("results.jtl.gz").toString(),
                "--counted", String.valueOf(Long.parseLong(counted.group(1)) + extra)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(dir.resolve("soak.svg")).isNotEmptyFile();
        return new Report(process.exitValue(), output);
    }

    private static boolean runs(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
