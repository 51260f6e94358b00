package io.h2bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Groups the samples of a JTL by object and protocol and computes seed 000's table: per object and
 * protocol the mean, median and p90 of elapsed, the count, the errors, the ratio of medians to h1,
 * and seed 000's figure with our median's ratio to it.
 */
public final class Comparison {

    /** The baseline every ratio is taken against. */
    public static final String BASELINE = "h1";

    /**
     * Labels of the plans' warm-up thread group: the first page loads of a JVM pay class loading and
     * JIT compilation (seconds on a busy machine), which would be charged to whichever protocol ran
     * first, so they are run once under this prefix and left out of the comparison.
     */
    public static final String WARM_UP_PREFIX = "warm-up ";

    /**
     * The listeners' order. A variant such as {@code h2-push} or {@code h1-compound} follows its base
     * protocol (so seed 000's plan reads h1, h1-tls, h2, h2-push, h2c, h3: the TCP protocols the seed
     * measured, then QUIC, which it did not); anything else comes last.
     */
    private static final List<String> BASE_ORDER = List.of("h1", "h1-tls", "h2", "h2c", "h3");

    private final List<ComparisonRow> rows;

    private Comparison(List<ComparisonRow> rows) {
        this.rows = List.copyOf(rows);
    }

    public static Comparison of(List<Sample> samples) {
        List<Sample> parents = withoutSubResults(samples).stream()
                .filter(sample -> !sample.label().startsWith(WARM_UP_PREFIX))
                .toList();
        Map<String, Map<String, List<Sample>>> byObject = new LinkedHashMap<>();
        for (Sample sample : parents) {
            LabelKey key = LabelKey.parse(sample.label());
            byObject.computeIfAbsent(key.object(), o -> new LinkedHashMap<>())
                    .computeIfAbsent(key.protocol(), p -> new ArrayList<>())
                    .add(sample);
        }
        List<ComparisonRow> rows = new ArrayList<>();
        byObject.forEach((object, byProtocol) -> rows.addAll(rowsFor(object, byProtocol)));
        return new Comparison(rows);
    }

    public List<ComparisonRow> rows() {
        return rows;
    }

    /** The rows of one object, in the protocols' order. */
    public List<ComparisonRow> rowsOf(String object) {
        return rows.stream().filter(row -> row.object().equals(object)).toList();
    }

    /** True when some row has a seed 000 figure to be read against. */
    public boolean hasSeedFigures() {
        return rows.stream().anyMatch(row -> !Double.isNaN(row.seedMean()));
    }

    /** Objects in the order they first appear in the results. */
    public List<String> objects() {
        return rows.stream().map(ComparisonRow::object).distinct().toList();
    }

    /** Protocols in the seeds' order, then any other in the order they first appear. */
    public List<String> protocols() {
        List<String> seen = rows.stream().map(ComparisonRow::protocol).distinct().toList();
        return seen.stream().sorted(protocolOrder(seen)).toList();
    }

    /**
     * A sample whose message says it used another protocol than its label names (a declined h2c
     * Upgrade, ALPN's http/1.1, h3 by Alt-Svc before the advertisement) measured that other protocol:
     * it is counted apart and kept out of the row's figures.
     */
    private static List<ComparisonRow> rowsFor(String object, Map<String, List<Sample>> byProtocol) {
        List<String> protocols = byProtocol.keySet().stream()
                .sorted(protocolOrder(List.copyOf(byProtocol.keySet())))
                .toList();
        double baseline = byProtocol.containsKey(BASELINE)
                ? timesOfSuccesses(asAsked(byProtocol.get(BASELINE))).median()
                : Double.NaN;
        List<ComparisonRow> rows = new ArrayList<>();
        for (String protocol : protocols) {
            List<Sample> all = byProtocol.get(protocol);
            List<Sample> samples = asAsked(all);
            Statistics times = timesOfSuccesses(samples);
            int errors = (int) samples.stream().filter(s -> !s.success()).count();
            double seed = SeedFigures.mean(object, protocol);
            rows.add(new ComparisonRow(object, protocol, samples.size(), errors, times.mean(), times.median(),
                    times.percentile(90), times.median() / baseline, seed, times.median() / seed,
                    all.size() - samples.size(), otherReason(all)));
        }
        return rows;
    }

    /** The samples that used the protocol their label names. */
    private static List<Sample> asAsked(List<Sample> samples) {
        return samples.stream().filter(s -> ProtocolNote.in(s.responseMessage()).isEmpty()).toList();
    }

    /** The distinct notes of the samples that used another protocol: "HTTP/1.1 (reason)", joined. */
    private static String otherReason(List<Sample> samples) {
        return samples.stream()
                .flatMap(s -> ProtocolNote.in(s.responseMessage()).stream())
                .map(note -> note.used() + " (" + note.reason() + ")")
                .distinct()
                .collect(Collectors.joining("; "));
    }

    private static Statistics timesOfSuccesses(List<Sample> samples) {
        return new Statistics(samples.stream().filter(Sample::success).mapToLong(Sample::elapsed).toArray());
    }

    private static Comparator<String> protocolOrder(List<String> firstSeen) {
        return Comparator.comparingInt(Comparison::baseRank)
                .thenComparing(p -> !BASE_ORDER.contains(p))
                .thenComparingInt(firstSeen::indexOf);
    }

    private static int baseRank(String protocol) {
        int rank = BASE_ORDER.size();
        int longest = -1;
        for (int i = 0; i < BASE_ORDER.size(); i++) {
            String base = BASE_ORDER.get(i);
            boolean matches = protocol.equals(base) || protocol.startsWith(base + "-");
            if (matches && base.length() > longest) {
                rank = i;
                longest = base.length();
            }
        }
        return rank;
    }

    /**
     * JMeter saves embedded resources as rows labelled {@code <parent>-0}, {@code <parent>-1}...;
     * a CSV JTL has no other link to the parent, so such a row goes when its parent label exists.
     * Sub-results kept under their URL as label (e.g. server pushes) go too: a URL names no protocol.
     */
    static List<Sample> withoutSubResults(List<Sample> samples) {
        Set<String> labels = samples.stream().map(Sample::label).collect(Collectors.toSet());
        return samples.stream().filter(s -> !isSubResult(s.label(), labels)).toList();
    }

    private static boolean isSubResult(String label, Set<String> labels) {
        if (label.startsWith("http://") || label.startsWith("https://")) {
            return true;
        }
        int dash = label.lastIndexOf('-');
        return dash > 0
                && dash < label.length() - 1
                && label.substring(dash + 1).chars().allMatch(Character::isDigit)
                && labels.contains(label.substring(0, dash));
    }
}
