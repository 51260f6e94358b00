package io.h2bench.report;

import static io.h2bench.report.ComparisonTest.sample;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonReadingTest {

    private static final RunConditions WARM = new RunConditions("rtt 100 ms; engine: kernel", "warm", "why.md#tcp");

    @Test
    void shouldSayTheSeedDiffersWhenH2IsSlowerThanH1OnThePage() {
        List<String> reading = ComparisonReading.of(Comparison.of(loads(
                "h1 page", 550, "h1-tls page", 620, "h2 page", 650, "h2-push page", 190, "h2c page", 630)), WARM);

        assertThat(reading.get(0)).isEqualTo("- **page**: fastest here h2-push (190.0 ms median);"
                + " h2 / h1 1.18 (h2 slower), seed 000 0.70 (h2 faster): differs;"
                + " seed 000's fastest h2-push (273.9 ms): agrees.");
        assertThat(reading.get(2)).startsWith("Where this run and the seed differ: ")
                .endsWith("[Why real TCP differs from DevTools throttling](why.md#tcp).");
    }

    @Test
    void shouldSayTheSeedAgreesWhenBothFindTheTextsEven() {
        List<String> reading = ComparisonReading.of(Comparison.of(loads(
                "h1 small-text", 312, "h1-tls small-text", 324, "h2 small-text", 305)), WARM);

        // 305 / 312 = 0.98, the seed's 252.9 / 257.7 = 0.98: both within 5 %
        assertThat(reading.get(0)).isEqualTo("- **small-text**: fastest here h2 (305.0 ms median);"
                + " h2 / h1 0.98 (even), seed 000 0.98 (even): agrees;"
                + " seed 000's fastest h2 (252.9 ms): agrees.");
        assertThat(reading.get(2)).startsWith("Against the seed: ");
    }

    @Test
    void shouldCountTheSeedsFastestAsAgreeingWhenItIsWithinFivePercentOfOursHere() {
        List<String> reading = ComparisonReading.of(Comparison.of(loads(
                "h1 large-text", 806, "h1-tls large-text", 813, "h2 large-text", 811)), WARM);

        assertThat(reading.get(0)).startsWith("- **large-text**: fastest here h1 (806.0 ms median, every protocol within 5 % of it);")
                .endsWith("seed 000's fastest h2 (772.7 ms): agrees, here within 5 % of h1.");
        assertThat(reading.get(2)).startsWith("Against the seed: ");
    }

    @Test
    void shouldNameOurFastestOfTheSeedsProtocolsWhenTheSeedsFastestLosesHere() {
        List<String> reading = ComparisonReading.of(Comparison.of(loads(
                "h1 large-text", 800, "h1-tls large-text", 760, "h2 large-text", 810, "h2c large-text", 700)), WARM);

        assertThat(reading.get(0)).endsWith("seed 000's fastest h2 (772.7 ms): differs, here h1-tls is the fastest of the seed's.")
                .contains("fastest here h2c (700.0 ms median)");
    }

    @Test
    void shouldGiveTheSeedsOnlyFigureWhenTheObjectIsTheInlinedPage() {
        List<String> reading = ComparisonReading.of(Comparison.of(loads("h1 inline", 610, "h2 inline", 635)), WARM);

        assertThat(reading.get(0)).isEqualTo("- **inline**: fastest here h1 (610.0 ms median, every protocol within 5 % of it);"
                + " h2 / h1 1.04 (even); seed 000 gives only h2, 317.5 ms; here 635.0 ms, 2.00 of it.");
    }

    @Test
    void shouldCompareH3WithH2ButNotWithTheSeedWhenTheRunMeasuredHttp3() {
        List<String> reading = ComparisonReading.of(Comparison.of(loads(
                "h1 page", 550, "h1-tls page", 620, "h2 page", 400, "h2-push page", 450, "h2c page", 390,
                "h3 page", 350)), WARM);

        // h3 is fastest here, but the seed's fastest is read among the protocols the seed measured
        assertThat(reading.get(0)).isEqualTo("- **page**: fastest here h3 (350.0 ms median);"
                + " h2 / h1 0.73 (h2 faster), seed 000 0.70 (h2 faster): agrees; h3 / h2 0.88 (h3 faster);"
                + " seed 000's fastest h2-push (273.9 ms): differs, here h2 is the fastest of the seed's.");
    }

    @Test
    void shouldCallH3EvenWithH2WhenTheirMediansAreWithinFivePercent() {
        List<String> reading = ComparisonReading.of(Comparison.of(loads(
                "h1 items-25", 100, "h2 items-25", 60, "h3 items-25", 62)), WARM);

        assertThat(reading.get(0)).isEqualTo("- **items-25**: fastest here h2 (60.0 ms median);"
                + " h2 / h1 0.60 (h2 faster); h3 / h2 1.03 (even).");
    }

    @Test
    void shouldPointToWhyH3DiffersWhenTheRunMeasuredItOnAnEmulatedLink() {
        RunConditions source = new RunConditions("rtt 100 ms; engine: kernel", "warm",
                "../../src/site/markdown/seed-000.md#real-tcp-against-devtools-throttling");
        RunConditions loopback = new RunConditions("no network emulation (plain loopback)", "warm", RunConditions.SITE_EXPLANATION);
        Comparison withH3 = Comparison.of(loads("h1 items-25", 100, "h2 items-25", 60, "h3 items-25", 30));

        assertThat(ComparisonReading.of(withH3, source)).last().asString()
                .endsWith("[h3 beside the TCP protocols](../../src/site/markdown/seed-000.md#h3-beside-the-tcp-protocols).");
        assertThat(new RunConditions("", "", RunConditions.SITE_EXPLANATION).h3Explanation())
                .isEqualTo("seed-000.html#h3_beside_the_TCP_protocols");
        assertThat(ComparisonReading.of(withH3, loopback)).noneMatch(line -> line.contains("h3 beside"));
        assertThat(ComparisonReading.of(Comparison.of(loads("h1 items-25", 100, "h2 items-25", 60)), source))
                .noneMatch(line -> line.contains("h3 beside"));
    }

    @Test
    void shouldSayWhatH3UnderLossOwesToTheListenersQuicWhenTheLinkDropsPackets() {
        String lossy = "custom: rtt 100 ms, down unlimited, up unlimited, loss 1 % (seed 1); engine: kernel";
        RunConditions site = new RunConditions(lossy, "cold", RunConditions.SITE_EXPLANATION);
        RunConditions source = new RunConditions(lossy, "cold", "../../src/site/markdown/seed-000.md#real-tcp-against-devtools-throttling");
        RunConditions lossless = new RunConditions(lossy.replace("loss 1 % (seed 1)", "loss 0 %"), "cold", RunConditions.SITE_EXPLANATION);
        Comparison withH3 = Comparison.of(loads("h1 page", 900, "h2 page", 800, "h3 page", 600));

        assertThat(ComparisonReading.of(withH3, site)).last().asString()
                .startsWith("h3 under loss is partly the listener's QUIC")
                .endsWith("(benchmarks.html#HTTP.2F3_against_independent_servers_.28issue_38.29).");
        assertThat(ComparisonReading.of(withH3, source)).last().asString()
                .endsWith("(../../src/site/markdown/benchmarks.md#http3-against-independent-servers-issue-38).");
        assertThat(ComparisonReading.of(withH3, lossless)).noneMatch(line -> line.contains("under loss"));
        assertThat(ComparisonReading.of(Comparison.of(loads("h1 page", 900, "h2 page", 800)), site))
                .noneMatch(line -> line.contains("under loss"));
        assertThat(new RunConditions("rtt 25 ms, loss 0.5 %", "", "").lossy()).isTrue();
    }

    @Test
    void shouldSayWhatTheServersQuicheDoesAtALossWhenTheBannerNamesIt() {
        String lossy = "custom: rtt 100 ms, down unlimited, up unlimited, loss 1 % (seed 1); engine: kernel;"
                + " h3: cubic, initial window 10 packets, no Retry; ";
        Comparison withH3 = Comparison.of(loads("h1 page", 900, "h2 page", 800, "h3 page", 600));
        RunConditions patched = new RunConditions(lossy + "quiche 0.29.3 with h2bench's CUBIC patches", "cold", RunConditions.SITE_EXPLANATION);
        RunConditions netty = new RunConditions(lossy + "quiche 0.29.3 as Netty ships it (window cuts roll back: see the"
                + " benchmarks page, \"quiche's CUBIC, patched\")", "cold", RunConditions.SITE_EXPLANATION);

        assertThat(ComparisonReading.of(withH3, patched)).last().asString()
                .contains("keeps a window cut").doesNotContain("undoes");
        assertThat(ComparisonReading.of(withH3, netty)).last().asString()
                .contains("as Netty ships it, undoes its window cuts").contains("12 s against their 50 s");
    }

    @Test
    void shouldSayTheTimesAreTheMachinesWhenTheRunHadNoEmulatedNetwork() {
        RunConditions loopback = new RunConditions("no network emulation (plain loopback)", "warm", "why.md#tcp");

        List<String> reading = ComparisonReading.of(Comparison.of(loads("h1 page", 49, "h2 page", 60)), loopback);

        assertThat(reading.get(2)).contains("this run had no emulated network, so its times are the machine's work");
    }

    @Test
    void shouldLeaveTheSeedOutWhenThePlanIsNotSeed000s() {
        List<String> reading = ComparisonReading.of(Comparison.of(loads("h1 items-25", 100, "h2 items-25", 56)), WARM);

        assertThat(reading).containsExactly("- **items-25**: fastest here h2 (56.0 ms median); h2 / h1 0.56 (h2 faster).");
    }

    /** Three loads per label and time: the first, connection-opening one twice as long. */
    private static List<Sample> loads(Object... labelsAndMedians) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < labelsAndMedians.length; i += 2) {
            String label = (String) labelsAndMedians[i];
            long median = (Integer) labelsAndMedians[i + 1];
            samples.addAll(List.of(sample(label, 2 * median), sample(label, median), sample(label, median)));
        }
        return samples;
    }
}
