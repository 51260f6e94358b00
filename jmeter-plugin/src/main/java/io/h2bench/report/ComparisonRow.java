package io.h2bench.report;

/**
 * One line of the comparison table: the elapsed times of one object over one protocol.
 * Times are over successful samples only (a failed sample's time says nothing about the protocol);
 * {@code samples} counts all of them, {@code errors} the failed ones. Ratios are of medians, so a
 * series' first, connection-opening load weighs as one load among ten and not as a tenth of the mean.
 *
 * @param ratioToH1   this median divided by the median of {@code h1} for the same object, NaN without h1
 * @param seedMean    seed 000's mean for this object and protocol ({@link SeedFigures}), NaN where it has none
 * @param ratioToSeed this median divided by {@code seedMean}, NaN without one
 * @param otherProtocol samples of this label that used another protocol than it names ({@link ProtocolNote}):
 *                      counted apart, in none of the figures above
 * @param otherReason  what those samples used and why, e.g. "HTTP/1.1 (h2c Upgrade declined by the server)"
 */
public record ComparisonRow(
        String object,
        String protocol,
        int samples,
        int errors,
        double mean,
        double median,
        double p90,
        double ratioToH1,
        double seedMean,
        double ratioToSeed,
        int otherProtocol,
        String otherReason) {
}
