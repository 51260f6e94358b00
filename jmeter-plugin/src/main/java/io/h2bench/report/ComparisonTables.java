package io.h2bench.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** Writes the comparison as comparison.csv (for tools) and comparison.md (for people). */
public final class ComparisonTables {

    private static final String[] COLUMNS = {"object", "protocol", "mean_ms", "median_ms", "p90_ms", "n", "errors",
        "median_ratio_to_h1", "seed000_mean_ms", "median_ratio_to_seed000", "other_protocol_n", "other_protocol"};

    private ComparisonTables() {
    }

    public static void writeCsv(Comparison comparison, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
             CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(COLUMNS).build())) {
            for (ComparisonRow row : comparison.rows()) {
                csv.printRecord(row.object(), row.protocol(), number(row.mean(), 1), number(row.median(), 1),
                        number(row.p90(), 1), row.samples(), row.errors(), number(row.ratioToH1(), 3),
                        number(row.seedMean(), 1), number(row.ratioToSeed(), 3), row.otherProtocol(), row.otherReason());
            }
        }
    }

    /** comparison.md, which bin/compare also prints: heading, table, then the reading. */
    public static void writeMarkdown(Comparison comparison, String source, RunConditions conditions, Path file)
            throws IOException {
        Files.writeString(file, markdown(comparison, source, conditions), StandardCharsets.UTF_8);
    }

    static String markdown(Comparison comparison, String source, RunConditions conditions) {
        boolean seed = comparison.hasSeedFigures();
        StringBuilder md = new StringBuilder();
        md.append("# h2bench protocol comparison\n\n");
        md.append("## ").append(conditions.heading()).append("\n\n");
        md.append("From `").append(source).append("`. Elapsed time (last byte) in ms over successful samples;"
                + " median and p90 by nearest rank, as JMeter's Aggregate Report; n counts every sample,"
                + " errors the failed ones (samples that used another protocol than their label names are in"
                + " neither: see the reading). Ratios are of medians (a series' first load opens its connections),"
                + " to the median of `h1` for the same object");
        md.append(seed ? " and to seed 000's mean (Chrome DevTools, 100 ms added latency, mean of 10 loads).\n\n" : ".\n\n");
        md.append("| object | protocol | mean (ms) | median (ms) | p90 (ms) | n | errors | ratio to h1 |")
                .append(seed ? " seed 000 (ms) | ratio to seed |\n" : "\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|").append(seed ? "---:|---:|\n" : "\n");
        for (ComparisonRow row : comparison.rows()) {
            md.append("| ").append(row.object().isEmpty() ? "-" : row.object())
                    .append(" | ").append(row.protocol())
                    .append(" | ").append(orDash(number(row.mean(), 1)))
                    .append(" | ").append(orDash(number(row.median(), 1)))
                    .append(" | ").append(orDash(number(row.p90(), 1)))
                    .append(" | ").append(row.samples())
                    .append(" | ").append(row.errors())
                    .append(" | ").append(orDash(number(row.ratioToH1(), 2)));
            if (seed) {
                md.append(" | ").append(orDash(number(row.seedMean(), 1)))
                        .append(" | ").append(orDash(number(row.ratioToSeed(), 2)));
            }
            md.append(" |\n");
        }
        List<String> reading = ComparisonReading.of(comparison, conditions);
        if (!reading.isEmpty()) {
            md.append("\n## Reading\n\n");
            reading.forEach(line -> md.append(line).append('\n'));
        }
        return md.toString();
    }

    /** Locale-independent digits; empty for NaN/infinite (no successes, or no h1 to compare with). */
    static String number(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static String orDash(String value) {
        return value.isEmpty() ? "-" : value;
    }
}
