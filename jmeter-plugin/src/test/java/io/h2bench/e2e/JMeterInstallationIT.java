package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

import io.h2bench.report.Sample;

/** The assembled JMeter itself, with the plugin jar in lib/ext, before any h2bench sampler runs. */
class JMeterInstallationIT {

    private final HeadlessJMeter jmeter = HeadlessJMeter.assembled();

    @Test
    void shouldRunTrivialPlanAndLogCleanlyWhenPluginJarIsInLibExt() throws Exception {
        Path plan = Path.of(getClass().getResource("/e2e/trivial.jmx").toURI());

        JMeterRun run = jmeter.run(plan, HeadlessJMeter.runDirectory("trivial"),
                Map.of("iterations", "3"), Duration.ofMinutes(2));

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.samples()).extracting(Sample::label).containsExactly("debug", "debug", "debug");
        assertThat(run.logLines()).as("jmeter.log").isNotEmpty();
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
    }

    @Test
    void shouldKillJMeterWhenItOutlivesTheTimeout() throws Exception {
        Path plan = Path.of(getClass().getResource("/e2e/trivial.jmx").toURI());

        // The plan never ends, so any timeout shows the kill; 6 s lets JMeter start and sample first (2 to 4 s here).
        JMeterRun run = jmeter.run(plan, HeadlessJMeter.runDirectory("timeout"),
                Map.of("iterations", "-1", "pause_ms", "500"), Duration.ofSeconds(6));

        assertThat(run.timedOut()).isTrue();
        assertThat(ProcessHandle.of(run.pid()).map(ProcessHandle::isAlive)).as("JMeter process").isNotEqualTo(Optional.of(true));
    }

    @Test
    void shouldKeepJMeterOnSlf4j17WhenPluginIsInstalled() throws Exception {
        // An SLF4J 2 jar next to JMeter 5.6.3's SLF4J 1.7.36 silently stops jmeter.log.
        assertThat(jmeter.pluginJar()).isRegularFile();
        try (Stream<Path> ext = Files.list(jmeter.home().resolve("lib/ext"));
             Stream<Path> lib = Files.list(jmeter.home().resolve("lib"))) {
            assertThat(ext.map(p -> p.getFileName().toString())).noneMatch(name -> name.contains("slf4j"));
            List<String> slf4j = lib.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("slf4j-api")).toList();
            assertThat(slf4j).containsExactly("slf4j-api-1.7.36.jar");
        }
        try (var jar = new java.util.jar.JarFile(jmeter.pluginJar().toFile())) {
            assertThat(jar.stream().map(java.util.jar.JarEntry::getName)).noneMatch(n -> n.startsWith("org/slf4j/"));
        }
    }
}
