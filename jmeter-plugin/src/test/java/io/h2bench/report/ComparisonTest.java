package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTest {

    @Test
    void shouldComputeSeedTableWhenJtlHasPageOverSeveralProtocols() throws Exception {
        Comparison comparison = Comparison.of(JtlReader.read(TestJtl.small()));

        assertThat(comparison.rows()).containsExactly(
                new ComparisonRow("page", "h1", 4, 0, 25.0, 20.0, 40.0, 1.0, 544.7, 20 / 544.7, 0, ""),
                new ComparisonRow("page", "h2", 4, 1, 6.0, 6.0, 8.0, 0.3, 383.8, 6 / 383.8, 0, ""),
                new ComparisonRow("page", "h2-push", 1, 0, 5.0, 5.0, 5.0, 0.25, 273.9, 5 / 273.9, 0, ""),
                new ComparisonRow("small-text", "h1-tls", 2, 0, 5.0, 3.0, 7.0, Double.NaN, 272.2, 3 / 272.2, 0, ""));
    }

    @Test
    void shouldTakeRatiosOfMediansWhenEachSeriesFirstLoadOpensItsConnections() {
        Comparison comparison = Comparison.of(List.of(
                sample("h1 page", 900), sample("h1 page", 100), sample("h1 page", 100),
                sample("h2 page", 150), sample("h2 page", 120), sample("h2 page", 120)));

        // means 366.7 and 130 would make h2 0.35 of h1; the loads after the first say 1.2
        assertThat(comparison.rows()).extracting(ComparisonRow::ratioToH1).containsExactly(1.0, 1.2);
    }

    @Test
    void shouldLeaveSeedFiguresEmptyWhenTheSeedDidNotMeasureTheProtocolOrObject() {
        Comparison comparison = Comparison.of(List.of(
                sample("h2c page", 100), sample("h2 items-25", 50), sample("h2 inline", 635)));

        assertThat(comparison.rows()).extracting(ComparisonRow::protocol, ComparisonRow::seedMean)
                .containsExactly(tuple("h2c", Double.NaN), tuple("h2", Double.NaN), tuple("h2", 317.5));
        assertThat(comparison.rows().get(2).ratioToSeed()).isCloseTo(2.0, within(0.001));
        assertThat(Comparison.of(List.of(sample("h2 items-25", 50))).hasSeedFigures()).isFalse();
    }

    @Test
    void shouldDropSubResultRowsWhenRenamedAfterTheirParentOrLabelledByUrl() {
        List<Sample> samples = List.of(sample("h1 page", 30), sample("h1 page-0", 3), sample("h1 large-text-2", 9),
                sample("https://127.0.0.1:8002/style.css", 2));

        assertThat(Comparison.withoutSubResults(samples)).extracting(Sample::label)
                .containsExactly("h1 page", "h1 large-text-2");
    }

    @Test
    void shouldOrderProtocolsAsTheSeedsWhenResultsArriveInAnotherOrder() {
        Comparison comparison = Comparison.of(List.of(
                sample("h2c inline", 4), sample("quic inline", 1), sample("h2 inline", 5), sample("h1 inline", 8)));

        assertThat(comparison.protocols()).containsExactly("h1", "h2", "h2c", "quic");
        assertThat(comparison.rows().get(1).ratioToH1()).isCloseTo(0.625, within(1e-9));
    }

    @Test
    void shouldPutH3AfterH2cWithoutSeedFigureWhenComparePlanMeasuresHttp3() {
        Comparison comparison = Comparison.of(List.of(
                sample("quic page", 1), sample("h3 page", 400), sample("h2c page", 380), sample("h2-push page", 270),
                sample("h2 page", 390), sample("h1-tls page", 650), sample("h1 page", 500)));

        // h3 is a listener of its own, not a protocol of the user's that would follow in the order first seen
        assertThat(comparison.protocols()).containsExactly("h1", "h1-tls", "h2", "h2-push", "h2c", "h3", "quic");
        ComparisonRow h3 = comparison.rowsOf("page").get(5);
        assertThat(h3.protocol()).isEqualTo("h3");
        assertThat(h3.ratioToH1()).isCloseTo(0.8, within(1e-9));
        assertThat(h3.seedMean()).isNaN();
        assertThat(h3.ratioToSeed()).isNaN();
    }

    @Test
    void shouldPutVariantsAfterTheirBaseProtocolWhenRestCollectionLabelsAreUsed() {
        Comparison comparison = Comparison.of(List.of(
                sample("h2-push items-25", 4), sample("h2-304 items-25", 1), sample("h2 items-25", 5),
                sample("h1-compound items-25", 2), sample("h1 items-25", 8), sample("h1-tls items-25", 8)));

        assertThat(comparison.protocols())
                .containsExactly("h1", "h1-compound", "h1-tls", "h2", "h2-push", "h2-304");
    }

    @Test
    void shouldTreatLabelWithoutSpaceAsProtocolWhenSmokePlanLabelsAreUsed() {
        Comparison comparison = Comparison.of(List.of(sample("h1", 10), sample("h2c", 5)));

        assertThat(comparison.objects()).containsExactly("");
        assertThat(comparison.rows()).extracting(ComparisonRow::ratioToH1).containsExactly(1.0, 0.5);
    }

    @Test
    void shouldLeaveWarmUpOutWhenThePlanRanAWarmUpThreadGroup() {
        Comparison comparison = Comparison.of(List.of(
                sample("warm-up h1 page", 5000), sample("warm-up h2 page", 900), sample("h1 page", 20), sample("h2 page", 10)));

        assertThat(comparison.rows()).extracting(ComparisonRow::protocol).containsExactly("h1", "h2");
        assertThat(comparison.rows()).extracting(ComparisonRow::ratioToH1).containsExactly(1.0, 0.5);
    }

    @Test
    void shouldCountSamplesApartWhenTheyUsedAnotherProtocolThanTheirLabelNames() {
        String declined = new ProtocolNote("h2c Upgrade declined by the server", "HTTP/1.1").appendTo("OK");
        Comparison comparison = Comparison.of(List.of(
                sample("h1 page", 100), sample("h2c page", 300, declined), sample("h2c page", 60),
                sample("h2c page", 300, declined)));

        ComparisonRow h2c = comparison.rows().get(1);
        assertThat(h2c.samples()).isEqualTo(1);
        assertThat(h2c.median()).isEqualTo(60.0);
        assertThat(h2c.otherProtocol()).isEqualTo(2);
        assertThat(h2c.otherReason()).isEqualTo("HTTP/1.1 (h2c Upgrade declined by the server)");
        assertThat(ComparisonReading.of(comparison, RunConditions.unknown())).contains(
                "- **h2c page**: 2 of 3 samples used HTTP/1.1 (h2c Upgrade declined by the server);"
                        + " they are counted apart and in none of this row's figures.");
    }

    static Sample sample(String label, long elapsed) {
        return sample(label, elapsed, "OK");
    }

    static Sample sample(String label, long elapsed, String message) {
        return new Sample(0, elapsed, label, "200", message, "t", true, "", 1, 1, 1, 0);
    }
}
