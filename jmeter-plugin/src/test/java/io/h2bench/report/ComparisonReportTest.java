package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonReportTest {

    @TempDir
    Path out;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void captureStderr() {
        originalErr = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(originalErr);
    }

    @Test
    void shouldHeadTheTableWithTheJtlsRecordedNetworkWhenNoNetworkOptionIsGiven() throws Exception {
        // as bin/compare saves it: -Jsample_variables=...,h2benchNetwork, a quoted value with commas
        Path jtl = out.resolve("recorded.jtl");
        Files.writeString(jtl, "label,elapsed,success,h2benchNetwork\n"
                + "h1 page,500,true,\"rtt 100 ms; engine: kernel; h3: cubic, initial window 10 packets, no Retry\"\n");

        int exit = ComparisonReport.run(jtl.toString(), out.toString(), "--connections", "cold");

        assertThat(exit).isZero();
        assertThat(Files.readString(out.resolve("comparison.md"))).contains("## rtt 100 ms; engine: kernel;"
                + " h3: cubic, initial window 10 packets, no Retry · cold connections");
    }

    @Test
    void shouldWriteCsvMarkdownAndPngWhenJtlIsValid() throws Exception {
        int exit = ComparisonReport.run(TestJtl.small().toString(), out.toString());

        assertThat(exit).isZero();
        assertThat(Files.readAllLines(out.resolve("comparison.csv"))).containsExactly(
                "object,protocol,mean_ms,median_ms,p90_ms,n,errors,median_ratio_to_h1,seed000_mean_ms,median_ratio_to_seed000,other_protocol_n,other_protocol",
                "page,h1,25.0,20.0,40.0,4,0,1.000,544.7,0.037,0,",
                "page,h2,6.0,6.0,8.0,4,1,0.300,383.8,0.016,0,",
                "page,h2-push,5.0,5.0,5.0,1,0,0.250,273.9,0.018,0,",
                "small-text,h1-tls,5.0,3.0,7.0,2,0,,272.2,0.011,0,");
        assertThat(Files.readString(out.resolve("comparison.md")))
                .contains("| page | h2 | 6.0 | 6.0 | 8.0 | 4 | 1 | 0.30 | 383.8 | 0.02 |")
                .contains("| small-text | h1-tls | 5.0 | 3.0 | 7.0 | 2 | 0 | - | 272.2 | 0.01 |");
        BufferedImage png = ImageIO.read(out.resolve("comparison.png").toFile());
        assertThat(png.getWidth()).isEqualTo(1120);
        assertThat(png.getHeight()).isEqualTo(56 + 360);
    }

    @Test
    void shouldHeadTheReportWithNetworkAndConnectionsWhenBinCompareGivesThem() throws Exception {
        int exit = ComparisonReport.run(TestJtl.small().toString(), out.toString(),
                "--network", "custom: rtt 100 ms; engine: kernel", "--connections", "warm", "--explained-at", "seed.md#tcp");

        assertThat(exit).isZero();
        List<String> md = Files.readAllLines(out.resolve("comparison.md"));
        assertThat(md.subList(0, 3)).containsExactly("# h2bench protocol comparison", "",
                "## custom: rtt 100 ms; engine: kernel · warm connections (each user keeps its connections across the loads)");
        assertThat(md).contains("## Reading").anyMatch(line -> line.endsWith("(seed.md#tcp)."));
    }

    @Test
    void shouldSayWhyThereAreNoH3RowsWhenBinCompareSkippedThem() throws Exception {
        int exit = ComparisonReport.run(TestJtl.small().toString(), out.toString(),
                "--network", "rtt 100 ms; engine: proxy", "--connections", "warm",
                "--no-h3", "not started: the byte proxy relays TCP only");

        assertThat(exit).isZero();
        assertThat(Files.readAllLines(out.resolve("comparison.md")).get(2)).isEqualTo("## rtt 100 ms; engine: proxy"
                + " · warm connections (each user keeps its connections across the loads)"
                + " · no h3: not started: the byte proxy relays TCP only");
    }

    @Test
    void shouldWriteH3RowAfterH2cWithADashForTheSeedWhenTheJtlHasHttp3() throws Exception {
        Path jtl = Files.writeString(out.resolve("h3.jtl"), TestJtl.HEADER + "\n"
                + "1,300,h3 page,200,OK,t,text,true,,1,1,1,1,https://h/,10,0,5\n"
                + "2,500,h1 page,200,OK,t,text,true,,1,1,1,1,http://h/,10,0,5\n"
                + "3,320,h2c page,200,OK,t,text,true,,1,1,1,1,http://h/,10,0,5\n");

        int exit = ComparisonReport.run(jtl.toString(), out.resolve("report").toString());

        assertThat(exit).isZero();
        assertThat(Files.readAllLines(out.resolve("report/comparison.csv"))).containsSubsequence(
                "page,h1,500.0,500.0,500.0,1,0,1.000,544.7,0.918,0,",
                "page,h2c,320.0,320.0,320.0,1,0,0.640,,,0,",
                "page,h3,300.0,300.0,300.0,1,0,0.600,,,0,");
        assertThat(Files.readString(out.resolve("report/comparison.md")))
                .contains("| page | h3 | 300.0 | 300.0 | 300.0 | 1 | 0 | 0.60 | - | - |");
    }

    @Test
    void shouldPrintUsageWhenAnOptionIsUnknownOrHasNoValue() {
        assertThat(ComparisonReport.run("a.jtl", "out", "--latency", "100ms")).isEqualTo(ComparisonReport.EXIT_USAGE);
        assertThat(ComparisonReport.run("a.jtl", "out", "--network")).isEqualTo(ComparisonReport.EXIT_USAGE);
    }

    @Test
    void shouldPrintOneLineErrorWhenJtlIsMissing() {
        int exit = ComparisonReport.run(out.resolve("nope.jtl").toString(), out.toString());

        assertThat(exit).isEqualTo(ComparisonReport.EXIT_BAD_INPUT);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).matches("error: .*nope\\.jtl: no such file\\R");
    }

    @Test
    void shouldPrintOneLineErrorWhenJtlIsNotCsv() throws Exception {
        Path notJtl = Files.writeString(out.resolve("notes.txt"), "hello world\n");

        int exit = ComparisonReport.run(notJtl.toString(), out.toString());

        assertThat(exit).isEqualTo(ComparisonReport.EXIT_BAD_INPUT);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).matches("error: .*notes\\.txt: no 'label' column[^\\n]*\\R");
    }

    @Test
    void shouldPrintUsageWhenArgumentsAreMissing() {
        assertThat(ComparisonReport.run("only-one.jtl")).isEqualTo(ComparisonReport.EXIT_USAGE);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).startsWith("usage: ");
    }
}
