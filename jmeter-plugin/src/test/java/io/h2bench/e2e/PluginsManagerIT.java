package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.h2bench.report.Sample;

/**
 * How JMeter users install plugins: the JMeter Plugins Manager's own command line
 * (kg.apc:jmeter-plugins-manager 1.3 from Maven Central, started by cmdrunner as its PluginsManagerCMD
 * script does) installs h2bench into a clean JMeter 5.6.3 from the repository the build writes,
 * target/plugins-manager/repo.json beside the jar it names; that JMeter then runs protocols-smoke.jmx.
 */
class PluginsManagerIT extends PlanAgainstServer {

    private static final Path REPO = Path.of(System.getProperty("h2bench.plugins-manager.repo",
            "target/plugins-manager/repo.json")).toAbsolutePath();
    private static final Path CLI = Path.of(System.getProperty("h2bench.plugins-manager.cli",
            "target/plugins-manager-cli")).toAbsolutePath();
    private static final String CMDRUNNER = "cmdrunner-2.3.jar";

    @TempDir
    Path work;

    @Test
    void shouldRunAPlanWhenThePluginsManagerInstalledH2benchFromTheLocalRepository() throws Exception {
        JsonNode plugin = new ObjectMapper().readTree(REPO.toFile()).get(0);
        String version = plugin.get("versions").fieldNames().next();
        Path home = cleanJMeter();

        assertThat(pluginsManager(home, "status")).as("before the install").endsWith("[]");
        pluginsManager(home, "install", plugin.get("id").asText());
        awaitInstallers();

        assertThat(home.resolve("lib/ext").resolve(plugin.at("/versions/" + version + "/downloadUrl").asText()))
                .isRegularFile();
        assertThat(pluginsManager(home, "status")).endsWith("[h2bench=" + version + "]");
        JMeterRun run = HeadlessJMeter.at(home).run(HeadlessJMeter.testPlan("protocols-smoke.jmx"),
                HeadlessJMeter.runDirectory("plugins-manager"), planProperties(2), Duration.ofMinutes(3));
        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.samples()).hasSize(4 * 2).allSatisfy(sample ->
                assertThat(sample.success()).as("%s: %s", sample.label(), sample.failureMessage()).isTrue());
        assertThat(run.samples()).extracting(Sample::label).containsOnly("h1", "h1-tls", "h2", "h2c");
    }

    /** The assembled JMeter without the h2bench jar, plus the Plugins Manager in lib/ext and cmdrunner in lib, where its installer puts them. */
    private Path cleanJMeter() throws IOException {
        Path assembled = jmeter.home();
        Path home = work.resolve("jmeter");
        try (Stream<Path> files = Files.walk(assembled)) {
            for (Path file : files.toList()) {
                Path copy = home.resolve(assembled.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else if (!file.equals(jmeter.pluginJar())) {
                    Files.copy(file, copy);
                }
            }
        }
        Files.copy(CLI.resolve("jmeter-plugins-manager-1.3.jar"), home.resolve("lib/ext/jmeter-plugins-manager-1.3.jar"));
        Files.copy(CLI.resolve(CMDRUNNER), home.resolve("lib").resolve(CMDRUNNER));
        return home;
    }

    /** One PluginsManagerCMD command against the local repository file; its output's last line. */
    private String pluginsManager(Path home, String... arguments) throws Exception {
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        Path output = Files.createTempFile(work, "plugins-manager-", ".txt");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true",
                "-Djpgc.repo.address=" + REPO,
                "-jar", home.resolve("lib").resolve(CMDRUNNER).toString(),
                "--tool", "org.jmeterplugins.repository.PluginManagerCMD"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.resolve("bin").toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        // its temporary jars and logs stay in this test's directory, also those of the process it starts
        builder.environment().put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp);
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("PluginsManagerCMD %s did not finish within 2 minutes", String.join(" ", arguments));
        }
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("PluginsManagerCMD %s: %s", String.join(" ", arguments), lines).isZero();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /**
     * The Plugins Manager moves jars in a process of its own that outlives its command (in the GUI,
     * JMeter must exit first); its log's last line says when that process is done.
     */
    private void awaitInstallers() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            try (Stream<Path> logs = Files.list(work.resolve("tmp"))) {
                for (Path log : logs.filter(f -> f.getFileName().toString().startsWith("jpgc-cleaner-")).toList()) {
                    if (Files.readString(log).contains("Done running installers")) {
                        return;
                    }
                }
            }
            Thread.sleep(100);
        }
        fail("the Plugins Manager's installer process did not finish within a minute");
    }
}
