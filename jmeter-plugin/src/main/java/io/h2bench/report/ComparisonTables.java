package io.h2bench.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** Writes the comparison as comparison.csv (for tools) and comparison.md (for people). */
public final class ComparisonTables {

    private static final String[] COLUMNS =
            {"object", "protocol", "mean_ms", "median_ms", "p90_ms", "n", "errors", "ratio_to_h1"};

    private ComparisonTables() {
    }

    public static void writeCsv(Comparison comparison, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
             CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(COLUMNS).build())) {
            for (ComparisonRow row : comparison.rows()) {
                csv.printRecord(row.object(), row.protocol(), number(row.mean(), 1), number(row.median(), 1),
                        number(row.p90(), 1), row.samples(), row.errors(), number(row.ratioToH1(), 3));
            }
        }
    }

    public static void writeMarkdown(Comparison comparison, String source, Path file) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# h2bench protocol comparison\n\n");
        md.append("From `").append(source).append("`. Elapsed time (last byte) in ms over successful samples;"
                + " median and p90 by nearest rank, as JMeter's Aggregate Report; n counts every sample,"
                + " errors the failed ones; ratio = mean / mean of `h1` for the same object.\n\n");
        md.append("| object | protocol | mean (ms) | median (ms) | p90 (ms) | n | errors | ratio to h1 |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (ComparisonRow row : comparison.rows()) {
            md.append("| ").append(row.object().isEmpty() ? "-" : row.object())
                    .append(" | ").append(row.protocol())
                    .append(" | ").append(orDash(number(row.mean(), 1)))
                    .append(" | ").append(orDash(number(row.median(), 1)))
                    .append(" | ").append(orDash(number(row.p90(), 1)))
                    .append(" | ").append(row.samples())
                    .append(" | ").append(row.errors())
                    .append(" | ").append(orDash(number(row.ratioToH1(), 2)))
                    .append(" |\n");
        }
        Files.writeString(file, md, StandardCharsets.UTF_8);
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
