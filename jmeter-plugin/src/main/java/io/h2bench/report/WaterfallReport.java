package io.h2bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/**
 * Command line: {@code java -cp h2bench-jmeter-plugin.jar io.h2bench.report.WaterfallReport results.xml outdir
 * [--label REGEX] [--max N] [--stamps-at-end]} writes one SVG waterfall per page sample of an XML JTL
 * plus an index.html. Runs without JMeter. Files are written into a scratch directory and moved into
 * outdir only once the whole JTL was read, so a bad input leaves nothing half-written.
 */
public final class WaterfallReport {

    static final int EXIT_WRITE_FAILED = 1;
    static final int EXIT_BAD_INPUT = 2;
    private static final int PROGRESS_EVERY = 100;
    private static final String USAGE = "usage: java -cp h2bench-jmeter-plugin.jar io.h2bench.report.WaterfallReport"
            + " <results.xml> <output directory> [--label REGEX] [--max N] [--stamps-at-end]";

    private final Path jtl;
    private final Path outDir;
    private final Pattern label;
    private final int max;
    private final boolean stampsAtEnd;
    private final PrintStream progress;
    private int samples;

    WaterfallReport(Path jtl, Path outDir, Pattern label, int max, boolean stampsAtEnd, PrintStream progress) {
        this.jtl = jtl;
        this.outDir = outDir;
        this.label = label;
        this.max = max;
        this.stampsAtEnd = stampsAtEnd;
        this.progress = progress;
    }

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** The whole CLI, minus System.exit, so tests can call it. */
    static int run(PrintStream out, PrintStream err, String... args) {
        Optional<WaterfallReport> report;
        try {
            report = parse(out, args);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.println(USAGE);
            return EXIT_BAD_INPUT;
        }
        if (report.isEmpty()) {
            err.println(USAGE);
            return EXIT_BAD_INPUT;
        }
        try {
            int pages = report.get().write();
            out.println("wrote " + pages + " waterfalls and index.html into " + report.get().outDir);
            return 0;
        } catch (JtlFormatException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("error: cannot write to " + report.get().outDir + ": " + e);
            return EXIT_WRITE_FAILED;
        }
    }

    private static Optional<WaterfallReport> parse(PrintStream out, String... args) {
        Path jtl = null;
        Path outDir = null;
        Pattern label = null;
        int max = Integer.MAX_VALUE;
        boolean stampsAtEnd = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--label" -> label = regex(value(args, ++i, "--label"));
                case "--max" -> max = positive(value(args, ++i, "--max"));
                case "--stamps-at-end" -> stampsAtEnd = true;
                default -> {
                    if (args[i].startsWith("--") || outDir != null) {
                        throw new IllegalArgumentException("unexpected argument " + args[i]);
                    }
                    if (jtl == null) {
                        jtl = Path.of(args[i]);
                    } else {
                        outDir = Path.of(args[i]);
                    }
                }
            }
        }
        return outDir == null ? Optional.empty()
                : Optional.of(new WaterfallReport(jtl, outDir, label, max, stampsAtEnd, out));
    }

    private static String value(String[] args, int at, String option) {
        if (at >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[at];
    }

    private static Pattern regex(String text) {
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("--label " + text + " is not a regular expression", e);
        }
    }

    private static int positive(String text) {
        try {
            int value = Integer.parseInt(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException ignored) {
            // reported below, with the option's name
        }
        throw new IllegalArgumentException("--max " + text + " is not a positive number");
    }

    /** Reads the JTL, writes the waterfalls and the index; returns how many pages were drawn. */
    int write() throws JtlFormatException, IOException {
        if (!Files.exists(jtl)) {
            throw new JtlFormatException(jtl + ": no such file"); // before any directory is made
        }
        Path parent = outDir.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path scratch = Files.createTempDirectory(parent, "." + outDir.getFileName() + "-partial-");
        try {
            WaterfallIndex index = new WaterfallIndex(String.valueOf(jtl.getFileName()));
            new XmlJtlReader(jtl, stampsAtEnd).read(sample -> page(sample, index, scratch));
            if (index.size() == 0) {
                throw new JtlFormatException(nothingDrawn());
            }
            Files.writeString(scratch.resolve("index.html"), index.html(), StandardCharsets.UTF_8);
            moveInto(scratch, outDir);
            return index.size();
        } finally {
            deleteTree(scratch);
        }
    }

    /** One top-level sample: drawn if it is a page load the filters keep; false once --max pages are drawn. */
    private boolean page(PageSample sample, WaterfallIndex index, Path scratch) throws JtlFormatException, IOException {
        samples++;
        if (sample.parts().isEmpty() || (label != null && !label.matcher(sample.label()).find())) {
            return true;
        }
        if (index.size() == 0) {
            checkDrawable(sample);
        }
        var rows = WaterfallRow.of(sample);
        String file = String.format(Locale.ROOT, "%04d-%s.svg", index.size() + 1, slug(sample.label()));
        Files.writeString(scratch.resolve(file), WaterfallSvg.render(sample, rows), StandardCharsets.UTF_8);
        index.add(new WaterfallIndex.Entry(file, sample, rows));
        if (index.size() % PROGRESS_EVERY == 0) {
            progress.println("  " + index.size() + " waterfalls written");
        }
        return index.size() < max;
    }

    /** The protocol and the push marks come from the sampler data or, in an XML JTL, the response headers. */
    private void checkDrawable(PageSample page) throws JtlFormatException {
        boolean described = page.parts().stream()
                .anyMatch(part -> !part.samplerData().isEmpty() || !part.responseHeaders().isEmpty());
        if (!described) {
            throw new JtlFormatException(jtl + ": the sub-results of '" + page.label() + "' carry neither sampler data"
                    + " nor response headers; run JMeter with " + XmlJtlReader.XML_OPTIONS);
        }
    }

    private String nothingDrawn() {
        if (samples == 0) {
            return jtl + ": has no samples";
        }
        if (label != null) {
            return jtl + ": no page sample (a sample with sub-results) has a label matching --label " + label;
        }
        return jtl + ": none of its " + samples + " samples has sub-results; run JMeter with " + XmlJtlReader.XML_OPTIONS
                + " and check \"Retrieve All Embedded Resources\" on the sampler";
    }

    static String slug(String label) {
        String slug = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        slug = slug.length() > 60 ? slug.substring(0, 60) : slug;
        return slug.isEmpty() ? "page" : slug;
    }

    private static void moveInto(Path scratch, Path outDir) throws IOException {
        Files.createDirectories(outDir);
        try (Stream<Path> files = Files.list(scratch)) {
            for (Path file : files.toList()) {
                Files.move(file, outDir.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
