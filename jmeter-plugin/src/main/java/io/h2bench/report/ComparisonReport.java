package io.h2bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Command line: {@code java -cp h2bench-jmeter-plugin.jar io.h2bench.report.ComparisonReport results.jtl outdir
 * [--network TEXT] [--connections warm|cold] [--explained-at LINK] [--no-h3 REASON]} writes comparison.csv,
 * comparison.md and comparison.png for any CSV JTL, headed by the network and connection policy when given
 * (without {@code --network}, the network the JTL recorded in its {@code h2benchNetwork} column, as bin/compare's
 * runs do), and by why there are no h3 rows when bin/compare skipped them.
 * Runs without JMeter.
 */
public final class ComparisonReport {

    static final int EXIT_USAGE = 2;
    static final int EXIT_BAD_INPUT = 1;
    private static final String USAGE = "usage: java -cp h2bench-jmeter-plugin.jar io.h2bench.report.ComparisonReport"
            + " <results.jtl> <output directory> [--network TEXT] [--connections warm|cold] [--explained-at LINK]"
            + " [--no-h3 REASON]";

    private ComparisonReport() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** The whole CLI, minus System.exit, so tests can call it. */
    static int run(String... args) {
        Optional<RunConditions> conditions = conditions(args);
        if (args.length < 2 || conditions.isEmpty()) {
            System.err.println(USAGE);
            return EXIT_USAGE;
        }
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true"); // the chart is drawn into an image, no display
        }
        Path jtl = Path.of(args[0]);
        Path outDir = Path.of(args[1]);
        try {
            List<Path> written = write(jtl, outDir, withRecordedNetwork(conditions.get(), jtl));
            written.forEach(file -> System.out.println("wrote " + file));
            return 0;
        } catch (JtlFormatException e) {
            System.err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            System.err.println("error: cannot write to " + outDir + ": " + e);
            return EXIT_BAD_INPUT;
        }
    }

    /** The options after the two paths; empty when one is unknown or lacks its value. */
    static Optional<RunConditions> conditions(String... args) {
        Map<String, String> options = new HashMap<>(Map.of("--network", "", "--connections", "",
                "--explained-at", RunConditions.SITE_EXPLANATION, "--no-h3", ""));
        for (int i = 2; i < args.length; i += 2) {
            if (!options.containsKey(args[i]) || i + 1 >= args.length) {
                return Optional.empty();
            }
            options.put(args[i], args[i + 1]);
        }
        return Optional.of(new RunConditions(options.get("--network"), options.get("--connections"),
                options.get("--explained-at"), options.get("--no-h3")));
    }

    /** The conditions, with the network the JTL recorded when {@code --network} gave none. */
    static RunConditions withRecordedNetwork(RunConditions conditions, Path jtl) throws JtlFormatException {
        if (!conditions.network().isBlank()) {
            return conditions;
        }
        return new RunConditions(JtlReader.recordedNetwork(jtl), conditions.connections(), conditions.explanation(),
                conditions.noH3());
    }

    /** Reads {@code jtl} and writes the three comparison files into {@code outDir}, returned in that order. */
    public static List<Path> write(Path jtl, Path outDir, RunConditions conditions) throws JtlFormatException, IOException {
        Comparison comparison = Comparison.of(JtlReader.read(jtl));
        Files.createDirectories(outDir);
        Path csv = outDir.resolve("comparison.csv");
        Path md = outDir.resolve("comparison.md");
        Path png = outDir.resolve("comparison.png");
        ComparisonTables.writeCsv(comparison, csv);
        ComparisonTables.writeMarkdown(comparison, jtl.getFileName().toString(), conditions, md);
        ComparisonChart.writePng(comparison, conditions, png);
        return List.of(csv, md, png);
    }
}
