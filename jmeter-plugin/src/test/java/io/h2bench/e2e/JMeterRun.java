package io.h2bench.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import io.h2bench.report.JtlFormatException;
import io.h2bench.report.JtlReader;
import io.h2bench.report.Sample;

/** What one headless JMeter run left behind: its exit, its JTL, its jmeter.log and its console. */
record JMeterRun(long pid, int exitCode, boolean timedOut, Path jtl, Path log, Path console) {

    /** log4j2 layout of JMeter 5.6.3: {@code 2026-11-22 00:49:52,227 ERROR o.a.j.x.Y: message}. */
    private static final Pattern ERROR_LINE = Pattern.compile("^\\S+ \\S+ ERROR .*");

    List<Sample> samples() throws JtlFormatException {
        return JtlReader.read(jtl);
    }

    List<String> logLines() throws IOException {
        return Files.readAllLines(log, StandardCharsets.UTF_8);
    }

    List<String> logErrors() throws IOException {
        return logLines().stream().filter(line -> ERROR_LINE.matcher(line).matches()).toList();
    }

    /** For assertion messages: where to look and the end of what JMeter printed. */
    String describe() {
        String output;
        try {
            List<String> lines = Files.readAllLines(console, StandardCharsets.UTF_8);
            output = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            output = "(no console output: " + e.getMessage() + ")";
        }
        return "JMeter exit " + exitCode + (timedOut ? " (killed after the timeout)" : "")
                + ", files in " + jtl.getParent() + ", console:\n" + output;
    }
}
