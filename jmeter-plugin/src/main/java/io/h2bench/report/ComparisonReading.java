package io.h2bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * A few sentences written from the numbers, so that a comparison reads as a finding: per object,
 * which protocol is fastest here and in seed 000, whether HTTP/2 against HTTP/1.1 goes the
 * seed's way, and HTTP/3 against HTTP/2 (which the seed did not measure). Ratios within 5 % count
 * as even, as the seed's own texts were (252.9 to 272.2 ms).
 */
public final class ComparisonReading {

    static final double EVEN = 0.05;

    private ComparisonReading() {
    }

    /** One Markdown line per object, then the link that explains the differences; empty for no rows. */
    public static List<String> of(Comparison comparison, RunConditions conditions) {
        List<String> lines = new ArrayList<>();
        boolean differs = false;
        boolean withH3 = false;
        for (String object : comparison.objects()) {
            List<ComparisonRow> rows = comparison.rowsOf(object).stream().filter(r -> !Double.isNaN(r.median())).toList();
            if (rows.isEmpty()) {
                continue;
            }
            List<String> parts = new ArrayList<>();
            ComparisonRow fastest = fastest(rows, ComparisonRow::median).orElseThrow();
            boolean allEven = rows.stream().allMatch(r -> even(r.median(), fastest.median()));
            parts.add("fastest here " + fastest.protocol() + " (" + ms(fastest.median()) + " ms median"
                    + (allEven && rows.size() > 1 ? ", every protocol within 5 % of it)" : ")"));
            Verdict versus = h2AgainstH1(rows);
            if (versus != null) {
                parts.add(versus.text());
                differs |= versus.differs();
            }
            String quic = h3AgainstH2(rows);
            if (quic != null) {
                parts.add(quic);
                withH3 = true;
            }
            Verdict seedFastest = seedFastest(rows);
            if (seedFastest != null) {
                parts.add(seedFastest.text());
                differs |= seedFastest.differs();
            }
            lines.add("- **" + (object.isEmpty() ? "all samples" : object) + "**: " + String.join("; ", parts) + ".");
        }
        lines.addAll(otherProtocols(comparison));
        if (comparison.hasSeedFigures()) {
            lines.add("");
            String here = conditions.plainLoopback()
                    ? "this run had no emulated network, so its times are the machine's work, not round trips"
                    : "a network emulated below TCP lets slow start and the number of connections count";
            lines.add((differs ? "Where this run and the seed differ" : "Against the seed")
                    + ": the seed throttled in Chrome DevTools, which adds latency to each request on a loopback"
                    + " TCP whose window never limits; " + here + "."
                    + " [Why real TCP differs from DevTools throttling](" + conditions.explanation() + ").");
        }
        if (withH3 && !conditions.plainLoopback()) {
            lines.add("");
            lines.add("h3 is QUIC on the same link; what makes it differ from TCP there (its handshake, the window a"
                    + " warm connection keeps between loads, its slower first loads): [h3 beside the TCP protocols]("
                    + conditions.h3Explanation() + ").");
            if (conditions.lossy()) {
                lines.add("");
                lines.add("h3 under loss is partly the listener's QUIC: " + quicheUnderLoss(conditions.network())
                        + " [h3 against independent servers](" + conditions.h3PeersExplanation() + ").");
            }
        }
        return lines;
    }

    /** What the server's quiche does at a sparse loss, by the library its banner's QUIC line names (QuicheLibrary). */
    private static String quicheUnderLoss(String network) {
        String rollback = "a large body comes out faster over h3 than they would serve it (10 MiB at 1 % loss and 100 ms:"
                + " 12 s against their 50 s).";
        if (network.contains("with h2bench's CUBIC patches")) {
            return "its quiche, with h2bench's CUBIC patches, keeps a window cut after a sparse loss as ngtcp2's and"
                    + " quic-go's servers do, so a large body takes about as long as from them (2 MiB at 1 % loss and"
                    + " 100 ms: 0.98 of ngtcp2's time).";
        }
        if (network.contains("as Netty ships it")) {
            return "its quiche, as Netty ships it, undoes its window cuts after sparse losses, where ngtcp2's and"
                    + " quic-go's servers keep them. A page of small objects agrees with those servers; " + rollback;
        }
        return "the server jar's quiche keeps a window cut after a sparse loss as ngtcp2's and quic-go's servers do,"
                + " but the quiche Netty ships (a build with -Dh2bench.quiche=netty or without Rust) undoes it, and then "
                + rollback + " This run's banner did not say which it was.";
    }

    /** One line per row with samples that used another protocol than their label names, which no figure holds. */
    private static List<String> otherProtocols(Comparison comparison) {
        return comparison.rows().stream()
                .filter(row -> row.otherProtocol() > 0)
                .map(row -> "- **" + new LabelKey(row.protocol(), row.object()).label() + "**: " + row.otherProtocol()
                        + " of " + (row.samples() + row.otherProtocol()) + " samples used " + row.otherReason()
                        + "; they are counted apart and in none of this row's figures.")
                .toList();
    }

    /** h2 / h1 of medians here, and the seed's h2 / h1 of means where it has both. */
    private static Verdict h2AgainstH1(List<ComparisonRow> rows) {
        Optional<ComparisonRow> h2 = row(rows, "h2");
        if (h2.isEmpty() || Double.isNaN(h2.get().ratioToH1())) {
            return null;
        }
        double ours = h2.get().ratioToH1();
        String text = "h2 / h1 " + ratio(ours) + " (" + direction("h2", ours) + ")";
        Optional<ComparisonRow> h1 = row(rows, "h1");
        double seed = h2.get().seedMean() / h1.map(ComparisonRow::seedMean).orElse(Double.NaN);
        if (Double.isNaN(seed)) {
            return new Verdict(text, false);
        }
        boolean same = direction("h2", ours).equals(direction("h2", seed));
        return new Verdict(text + ", seed 000 " + ratio(seed) + " (" + direction("h2", seed) + "): "
                + (same ? "agrees" : "differs"), !same);
    }

    /** h3 / h2 of medians here: QUIC against the TCP protocol it replaces; the seed has no h3 to compare. */
    private static String h3AgainstH2(List<ComparisonRow> rows) {
        Optional<ComparisonRow> h3 = row(rows, "h3");
        Optional<ComparisonRow> h2 = row(rows, "h2");
        if (h3.isEmpty() || h2.isEmpty()) {
            return null;
        }
        double ours = h3.get().median() / h2.get().median();
        return "h3 / h2 " + ratio(ours) + " (" + direction("h3", ours) + ")";
    }

    /** The seed's fastest protocol against ours among the protocols the seed measured. */
    private static Verdict seedFastest(List<ComparisonRow> rows) {
        List<ComparisonRow> withSeed = rows.stream().filter(r -> !Double.isNaN(r.seedMean())).toList();
        if (withSeed.size() == 1) {
            ComparisonRow only = withSeed.get(0);
            return new Verdict("seed 000 gives only " + only.protocol() + ", " + ms(only.seedMean()) + " ms; here "
                    + ms(only.median()) + " ms, " + ratio(only.ratioToSeed()) + " of it", false);
        }
        Optional<ComparisonRow> seeds = fastest(withSeed, ComparisonRow::seedMean);
        Optional<ComparisonRow> ours = fastest(withSeed, ComparisonRow::median);
        if (seeds.isEmpty()) {
            return null;
        }
        String text = "seed 000's fastest " + seeds.get().protocol() + " (" + ms(seeds.get().seedMean()) + " ms): ";
        if (seeds.get().protocol().equals(ours.orElseThrow().protocol())) {
            return new Verdict(text + "agrees", false);
        }
        if (even(seeds.get().median(), ours.get().median())) {
            return new Verdict(text + "agrees, here within 5 % of " + ours.get().protocol(), false);
        }
        return new Verdict(text + "differs, here " + ours.get().protocol() + " is the fastest of the seed's", true);
    }

    private static Optional<ComparisonRow> fastest(List<ComparisonRow> rows, ToDoubleFunction<ComparisonRow> time) {
        return rows.stream().min(Comparator.comparingDouble(time));
    }

    private static Optional<ComparisonRow> row(List<ComparisonRow> rows, String protocol) {
        return rows.stream().filter(r -> r.protocol().equals(protocol)).findFirst();
    }

    /** A time within 5 % of the fastest is as good as the fastest. */
    private static boolean even(double time, double fastest) {
        return time <= (1 + EVEN) * fastest;
    }

    /** How {@code protocol} fares when its median is {@code ratio} times the other's. */
    static String direction(String protocol, double ratio) {
        if (ratio < 1 - EVEN) {
            return protocol + " faster";
        }
        return ratio > 1 + EVEN ? protocol + " slower" : "even";
    }

    private static String ratio(double value) {
        return ComparisonTables.number(value, 2);
    }

    private static String ms(double value) {
        return ComparisonTables.number(value, 1);
    }

    private record Verdict(String text, boolean differs) {
    }
}
