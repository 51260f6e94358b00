package io.h2bench.report;

import java.util.Arrays;

/**
 * Mean and percentiles of sample times. Percentiles use the nearest-rank method, as JMeter's
 * Aggregate Report does, so a GUI user reads the same median and 90% line there and here.
 */
public final class Statistics {

    private final long[] sorted;

    public Statistics(long[] values) {
        this.sorted = values.clone();
        Arrays.sort(this.sorted);
    }

    public int count() {
        return sorted.length;
    }

    public double mean() {
        return sorted.length == 0 ? Double.NaN : Arrays.stream(sorted).average().orElseThrow();
    }

    public double median() {
        return percentile(50);
    }

    /** The smallest value with at least {@code percent} % of the values at or below it. */
    public double percentile(double percent) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }
}
