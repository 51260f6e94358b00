package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WaterfallReportTest {

    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return WaterfallReport.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private String error() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private List<String> files(Path directory) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void shouldWriteOneSvgPerPageAndAnIndexWhenGivenARealRun() throws Exception {
        Path report = dir.resolve("waterfalls");

        int exit = run(WaterfallJtl.named("pages.xml").toString(), report.toString());

        assertThat(exit).as(error()).isZero();
        assertThat(files(report)).containsExactly("0001-h1-page.svg", "0002-h2-page.svg", "0003-h2-push-page.svg", "index.html");
        String index = Files.readString(report.resolve("index.html"));
        assertThat(index).contains("<a href=\"0003-h2-push-page.svg\">h2-push page</a>")
                .contains("<td class=\"n\">" + WaterfallJtl.page("h2-push page").elapsedMillis() + "</td>");
        assertThat(files(dir)).containsExactly("waterfalls");
    }

    @Test
    void shouldDrawOnlyMatchingPagesUpToMaxWhenFiltered() throws Exception {
        Path report = dir.resolve("h2");

        int exit = run(WaterfallJtl.named("pages.xml").toString(), report.toString(), "--label", "^h2", "--max", "1");

        assertThat(exit).as(error()).isZero();
        assertThat(files(report)).containsExactly("0001-h2-page.svg", "index.html");
    }

    @Test
    void shouldFailWithoutWritingWhenTheFileIsMissing() {
        int exit = run(dir.resolve("nope.xml").toString(), dir.resolve("out").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(error()).isEqualToIgnoringNewLines("error: " + dir.resolve("nope.xml") + ": no such file");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void shouldNameTheJMeterOptionsWhenTheJtlIsCsv() throws Exception {
        Path csv = Files.writeString(dir.resolve("results.jtl"), TestJtl.HEADER + "\n");

        int exit = run(csv.toString(), dir.resolve("out").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(error()).contains("-Jjmeter.save.saveservice.output_format=xml").hasLineCount(1);
        assertThat(files(dir)).containsExactly("results.jtl");
    }

    @Test
    void shouldAskForSubResultsWhenNoSampleHasAny() throws Exception {
        int exit = run(WaterfallJtl.named("no-subresults.xml").toString(), dir.resolve("out").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(error()).contains("none of its 2 samples has sub-results")
                .contains("-Jjmeter.save.saveservice.subresults=true").hasLineCount(1);
        assertThat(files(dir)).isEmpty();
    }

    @Test
    void shouldAskForResponseHeadersWhenThePartsCarryNoDescription() throws Exception {
        int exit = run(WaterfallJtl.named("no-headers.xml").toString(), dir.resolve("out").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(error()).contains("-Jjmeter.save.saveservice.responseHeaders=true").hasLineCount(1);
        assertThat(files(dir)).isEmpty();
    }

    @Test
    void shouldPrintUsageWhenTheOutputDirectoryIsMissing() {
        assertThat(run(WaterfallJtl.named("pages.xml").toString())).isEqualTo(2);
        assertThat(error()).startsWith("usage: ");
    }
}
