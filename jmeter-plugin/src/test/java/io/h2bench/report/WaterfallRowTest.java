package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WaterfallRowTest {

    @Test
    void shouldFindProtocolAndPushesWhenTheXmlJtlHasNoSamplerData() throws Exception {
        List<WaterfallRow> rows = WaterfallRow.of(WaterfallJtl.page("h2-push page"));

        assertThat(rows).hasSize(17);
        assertThat(rows).filteredOn(WaterfallRow::pushed).hasSize(16);
        assertThat(rows).extracting(WaterfallRow::protocol).containsOnly("HTTP/2.0");
        assertThat(rows).extracting(WaterfallRow::connectionId).containsOnly(WaterfallRow.UNKNOWN_CONNECTION);
        assertThat(rows.get(0).offsetMillis()).isZero();
        assertThat(rows.get(0).connectMillis()).isPositive();
    }

    @Test
    void shouldSplitQueueConnectWaitingAndReceivingWhenTheSamplerDataIsThere() {
        PageSample part = new PageSample("http://h/img1.jpeg", 1_030, 80, 50, 10, 0, 64, true, "200",
                "GET http://h/img1.jpeg\n\nProtocol: HTTP/1.1\nALPN: none\nConnection: #3 (new)\nQueued: 30 ms\n", "", List.of());
        PageSample page = new PageSample("h1 page", 1_000, 110, 20, 0, 0, 64, true, "200", "", "",
                List.of(new PageSample("h1 page-0", 1_000, 20, 20, 0, 0, 64, true, "200", "Connection: #1", "", List.of()), part));

        WaterfallRow row = WaterfallRow.of(page).get(1);

        assertThat(row).isEqualTo(new WaterfallRow("http://h/img1.jpeg", 30, 20, 10, 0, 20, 30, 3, "HTTP/1.1", false, true));
        assertThat(row.endMillis()).isEqualTo(110);
    }

    @Test
    void shouldDrawTheSampleAloneWhenItHasNoParts() throws Exception {
        List<WaterfallRow> rows = WaterfallRow.of(WaterfallJtl.page("h2 small-text"));

        assertThat(rows).singleElement().satisfies(row -> assertThat(row.protocol()).isEqualTo("HTTP/2.0"));
    }
}
