package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatisticsTest {

    @Test
    void shouldUseNearestRankWhenComputingPercentiles() {
        Statistics times = new Statistics(new long[] {40, 10, 30, 20});

        assertThat(times.mean()).isEqualTo(25.0);
        assertThat(times.median()).isEqualTo(20.0);
        assertThat(times.percentile(90)).isEqualTo(40.0);
        assertThat(times.percentile(100)).isEqualTo(40.0);
        assertThat(times.percentile(0)).isEqualTo(10.0);
    }

    @Test
    void shouldMatchJMeterAggregateReportWhenTenValues() {
        Statistics times = new Statistics(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});

        assertThat(times.median()).isEqualTo(5.0);
        assertThat(times.percentile(90)).isEqualTo(9.0);
    }

    @Test
    void shouldBeNaNWhenThereAreNoValues() {
        Statistics none = new Statistics(new long[0]);

        assertThat(none.count()).isZero();
        assertThat(none.mean()).isNaN();
        assertThat(none.percentile(90)).isNaN();
    }
}
