package io.h2bench.report;

/**
 * One line of the comparison table: the elapsed times of one object over one protocol.
 * Times are over successful samples only (a failed sample's time says nothing about the protocol);
 * {@code samples} counts all of them, {@code errors} the failed ones.
 *
 * @param ratioToH1 this mean divided by the mean of {@code h1} for the same object, NaN without h1
 */
public record ComparisonRow(
        String object,
        String protocol,
        int samples,
        int errors,
        double mean,
        double median,
        double p90,
        double ratioToH1) {
}
