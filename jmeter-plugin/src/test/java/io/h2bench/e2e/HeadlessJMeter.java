package io.h2bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

/**
 * The JMeter 5.6.3 that the build assembled into {@code jmeter-plugin/target/jmeter} (plugin jar in
 * lib/ext), run as a separate process exactly as a user runs it: {@code java -jar bin/ApacheJMeter-5.6.3.jar -n}.
 * Every run gets its own directory under target/e2e, kept for reading after a failure.
 */
final class HeadlessJMeter {

    static final String SAMPLER_CLASS = "io/h2bench/sampler/Http2Sampler.class";

    private final Path home;

    private HeadlessJMeter(Path home) {
        this.home = home;
    }

    /** Paths come from failsafe's system properties; the fallbacks serve a run from the IDE. */
    static HeadlessJMeter assembled() {
        return at(Path.of(System.getProperty("h2bench.jmeter.home", "target/jmeter")).toAbsolutePath());
    }

    /** A JMeter 5.6.3 installed elsewhere, e.g. a copy that the Plugins Manager changed. */
    static HeadlessJMeter at(Path home) {
        if (!Files.isRegularFile(home.resolve("bin/ApacheJMeter-5.6.3.jar"))) {
            throw new IllegalStateException("no JMeter 5.6.3 in " + home + "; run `mvn package` first");
        }
        return new HeadlessJMeter(home);
    }

    static Path testPlan(String name) {
        return Path.of(System.getProperty("h2bench.test-plans", "../test-plans")).resolve(name).toAbsolutePath();
    }

    static Path runDirectory(String name) throws IOException {
        Path dir = Path.of(System.getProperty("h2bench.e2e.dir", "target/e2e")).resolve(name).toAbsolutePath();
        Files.createDirectories(dir);
        try (var old = Files.list(dir)) {
            for (Path file : old.toList()) {
                if (Files.isRegularFile(file)) {
                    Files.delete(file);
                }
            }
        }
        return dir;
    }

    Path home() {
        return home;
    }

    Path pluginJar() {
        return home.resolve("lib/ext/h2bench-jmeter-plugin.jar");
    }

    /** True once the client helper's sampler is in the built jar: until then the plans cannot load. */
    boolean pluginHasSampler() throws IOException {
        if (!Files.isRegularFile(pluginJar())) {
            return false;
        }
        try (JarFile jar = new JarFile(pluginJar().toFile())) {
            return jar.getEntry(SAMPLER_CLASS) != null;
        }
    }

    /**
     * Runs {@code plan} headless with {@code properties} as -J options; a JMeter still running after
     * {@code timeout} is killed (with its children) and reported as {@link JMeterRun#timedOut()}.
     */
    JMeterRun run(Path plan, Path dir, Map<String, String> properties, Duration timeout)
            throws IOException, InterruptedException {
        Path jtl = dir.resolve("results.jtl");
        Path log = dir.resolve("jmeter.log");
        Path console = dir.resolve("console.txt");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-jar", home.resolve("bin/ApacheJMeter-5.6.3.jar").toString(),
                "-n", "-t", plan.toString(), "-l", jtl.toString(), "-j", log.toString()));
        properties.forEach((name, value) -> command.add("-J" + name + "=" + value));
        Process jmeter = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        boolean exited = jmeter.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!exited) {
            jmeter.descendants().forEach(ProcessHandle::destroyForcibly);
            jmeter.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        return new JMeterRun(jmeter.pid(), exited ? jmeter.exitValue() : -1, !exited, jtl, log, console);
    }
}
