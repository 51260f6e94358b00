package io.h2bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Command line: {@code java -cp h2bench-jmeter-plugin.jar io.h2bench.report.ComparisonReport results.jtl outdir}
 * writes comparison.csv, comparison.md and comparison.png for any CSV JTL. Runs without JMeter.
 */
public final class ComparisonReport {

    static final int EXIT_USAGE = 2;
    static final int EXIT_BAD_INPUT = 1;

    private ComparisonReport() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** The whole CLI, minus System.exit, so tests can call it. */
    static int run(String... args) {
        if (args.length != 2) {
            System.err.println("usage: java -cp h2bench-jmeter-plugin.jar io.h2bench.report.ComparisonReport"
                    + " <results.jtl> <output directory>");
            return EXIT_USAGE;
        }
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true"); // the chart is drawn into an image, no display
        }
        Path jtl = Path.of(args[0]);
        Path outDir = Path.of(args[1]);
        try {
            List<Path> written = write(jtl, outDir);
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

    /** Reads {@code jtl} and writes the three comparison files into {@code outDir}, returned in that order. */
    public static List<Path> write(Path jtl, Path outDir) throws JtlFormatException, IOException {
        Comparison comparison = Comparison.of(JtlReader.read(jtl));
        Files.createDirectories(outDir);
        Path csv = outDir.resolve("comparison.csv");
        Path md = outDir.resolve("comparison.md");
        Path png = outDir.resolve("comparison.png");
        ComparisonTables.writeCsv(comparison, csv);
        ComparisonTables.writeMarkdown(comparison, jtl.getFileName().toString(), md);
        ComparisonChart.writePng(comparison, png);
        return List.of(csv, md, png);
    }
}
