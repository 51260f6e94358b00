package io.h2bench.report;

import static io.h2bench.report.ComparisonTest.sample;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jfree.chart.title.TextTitle;
import org.junit.jupiter.api.Test;

class ComparisonChartTest {

    private final Comparison comparison = Comparison.of(List.of(
            sample("h3 page", 420), sample("h1 page", 550), sample("h2 page", 650), sample("h2-push page", 190),
            sample("h1 small-text", 312), sample("h2 small-text", 305)));

    @Test
    void shouldDrawOnlyTheProtocolsAPanelHasWhenPushIsMeasuredForThePageAlone() {
        assertThat(ComparisonChart.dataset(comparison, "page").getRowKeys()).containsExactly("h1", "h2", "h2-push", "h3");
        assertThat(ComparisonChart.dataset(comparison, "small-text").getRowKeys()).containsExactly("h1", "h2");
        assertThat(ComparisonChart.dataset(comparison, "small-text").getValue("h2", "small-text")).isEqualTo(305.0);
    }

    @Test
    void shouldNameTheNetworkAndConnectionsWhenTheTitleIsDrawn() {
        RunConditions conditions = new RunConditions("custom: rtt 100 ms; engine: kernel", "cold", "");

        TextTitle subtitle = (TextTitle) ComparisonChart.title(conditions).getSubtitle(0);

        assertThat(subtitle.getText()).isEqualTo(conditions.heading())
                .startsWith("custom: rtt 100 ms; engine: kernel · cold connections");
    }
}
