package io.h2bench.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** For tests of the scripts under benchmarks/: where they are, and whether a tool they need runs here. */
final class BenchmarkScripts {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private BenchmarkScripts() {
    }

    /** Whether {@code command} runs and exits 0 within 30 s. */
    static boolean runs(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
