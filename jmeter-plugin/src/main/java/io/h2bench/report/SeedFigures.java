package io.h2bench.report;

import java.util.Map;

/**
 * Seed 000's published results, the figure each row of the comparison is read against: Chrome
 * DevTools with 100 ms of added latency, 10 loads per object and server, the mean in ms. Keyed by
 * the labels of {@code test-plans/compare-protocols.jmx} ("h2-push page"). The seed gives the inlined
 * page only as its best time, 317.5 ms over HTTP/2; h2c it did not measure (no browser speaks it),
 * nor HTTP/3 (its servers were HTTP/1.1 and HTTP/2 only), so h2c and h3 rows show no seed figure.
 */
public final class SeedFigures {

    /** Where the figures come from, for a table's header. */
    public static final String NAME = "seed 000";

    private static final Map<String, Double> MEANS = Map.ofEntries(
            Map.entry("h1 page", 544.7), Map.entry("h1-tls page", 654.2),
            Map.entry("h2 page", 383.8), Map.entry("h2-push page", 273.9),
            Map.entry("h2 inline", 317.5),
            Map.entry("h1 small-text", 257.7), Map.entry("h1-tls small-text", 272.2), Map.entry("h2 small-text", 252.9),
            Map.entry("h1 large-text", 784.2), Map.entry("h1-tls large-text", 810.0), Map.entry("h2 large-text", 772.7));

    private SeedFigures() {
    }

    /** The seed's mean in ms for this object over this protocol, NaN where it has none. */
    public static double mean(String object, String protocol) {
        return MEANS.getOrDefault(new LabelKey(protocol, object).label(), Double.NaN);
    }
}
