package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a probe's {@code main} in a fresh JVM on this test's class path, for JMeter properties that
 * JMeter reads once per JVM; returns its standard output after checking it exited 0.
 */
final class ProbeJvm {

    private ProbeJvm() {
    }

    static String run(Class<?> probe, String... args) throws IOException, InterruptedException {
        return run(List.of(), probe, args);
    }

    /** As {@link #run(Class, String...)}, the JVM started with {@code jvmOptions} (e.g. a small heap). */
    static String run(List<String> jvmOptions, Class<?> probe, String... args) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), probe.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(process.exitValue()).as(output).isZero();
            return output;
        } finally {
            process.destroyForcibly();
        }
    }
}
