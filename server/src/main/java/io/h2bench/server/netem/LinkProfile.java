package io.h2bench.server.netem;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The conditions of an emulated link.
 *
 * @param name              a preset name ("regular-3g"), "custom" or "ideal"
 * @param rtt               added round-trip time, applied half in each direction
 * @param downBitsPerSecond server-to-client bandwidth, 0 = unlimited
 * @param upBitsPerSecond   client-to-server bandwidth, 0 = unlimited
 * @param loss              probability that a segment is lost, in [0, 0.5)
 * @param seed              seed of the loss draws, so a run can be repeated
 */
public record LinkProfile(String name, Duration rtt, long downBitsPerSecond, long upBitsPerSecond,
                         double loss, long seed) {

    public static final long DEFAULT_SEED = 1;

    /**
     * Chrome DevTools' historical throttling presets (NetworkConditionsSelector, 2017-2019), the ones
     * seed 003 measured with. DevTools wrote kbit as 1024 bit, so "750 kb/s" is 768,000 bit/s, and
     * its "latency" is a minimum added per request round trip, which we apply as RTT.
     */
    private static final Map<String, LinkProfile> PRESETS = presets(
            preset("gprs", 500, 50 * 1024, 20 * 1024),
            preset("regular-2g", 300, 250 * 1024, 50 * 1024),
            preset("good-2g", 150, 450 * 1024, 150 * 1024),
            preset("regular-3g", 100, 750 * 1024, 250 * 1024),
            preset("good-3g", 40, 1536 * 1024, 750 * 1024),
            preset("regular-4g", 20, 4 * 1024 * 1024, 3 * 1024 * 1024),
            preset("dsl", 5, 2 * 1024 * 1024, 1024 * 1024),
            preset("wifi", 2, 30 * 1024 * 1024, 15 * 1024 * 1024));

    public LinkProfile {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(rtt, "rtt");
        if (rtt.isNegative()) {
            throw new IllegalArgumentException("rtt must not be negative: " + rtt);
        }
        if (downBitsPerSecond < 0 || upBitsPerSecond < 0) {
            throw new IllegalArgumentException("bandwidth must be positive or 0 (unlimited)");
        }
        if (!(loss >= 0 && loss < 0.5)) {
            throw new IllegalArgumentException("loss must be in [0, 0.5): " + loss);
        }
    }

    /** No emulation: the proxy forwards bytes as fast as it can. */
    public static LinkProfile ideal() {
        return new LinkProfile("ideal", Duration.ZERO, 0, 0, 0, DEFAULT_SEED);
    }

    /** A named preset, e.g. "regular-3g"; the name is matched ignoring case, spaces and dashes. */
    public static LinkProfile preset(String name) {
        String key = name.trim().toLowerCase(Locale.ROOT).replaceAll("[\\s_]+", "-");
        LinkProfile preset = PRESETS.get(key);
        if (preset == null) {
            throw new IllegalArgumentException(
                    "unknown profile '" + name + "': use one of " + String.join(", ", PRESETS.keySet()));
        }
        return preset;
    }

    /** Every preset by name, in the order DevTools lists them. */
    public static Map<String, LinkProfile> presets() {
        return PRESETS;
    }

    public boolean isIdeal() {
        return rtt.isZero() && downBitsPerSecond == 0 && upBitsPerSecond == 0 && loss == 0;
    }

    public LinkProfile withName(String newName) {
        return new LinkProfile(newName, rtt, downBitsPerSecond, upBitsPerSecond, loss, seed);
    }

    public LinkProfile withRtt(Duration newRtt) {
        return new LinkProfile(name, newRtt, downBitsPerSecond, upBitsPerSecond, loss, seed);
    }

    public LinkProfile withBandwidth(long down, long up) {
        return new LinkProfile(name, rtt, down, up, loss, seed);
    }

    public LinkProfile withLoss(double newLoss) {
        return new LinkProfile(name, rtt, downBitsPerSecond, upBitsPerSecond, newLoss, seed);
    }

    public LinkProfile withSeed(long newSeed) {
        return new LinkProfile(name, rtt, downBitsPerSecond, upBitsPerSecond, loss, newSeed);
    }

    /** One line for the console, e.g. "regular-3g: rtt 100 ms, down 768 kbit/s, up 256 kbit/s, loss 0 %". */
    public String describe() {
        if (isIdeal()) {
            return "no network emulation";
        }
        String line = name + ": rtt " + LinkUnits.formatDuration(rtt)
                + ", down " + LinkUnits.formatBitRate(downBitsPerSecond)
                + ", up " + LinkUnits.formatBitRate(upBitsPerSecond)
                + ", loss " + LinkUnits.formatLoss(loss);
        return loss > 0 ? line + " (seed " + seed + ")" : line;
    }

    /** Half the round trip, the delay of each direction. */
    Duration oneWayDelay() {
        return rtt.dividedBy(2);
    }

    private static LinkProfile preset(String name, long latencyMillis, long down, long up) {
        return new LinkProfile(name, Duration.ofMillis(latencyMillis), down, up, 0, DEFAULT_SEED);
    }

    private static Map<String, LinkProfile> presets(LinkProfile... profiles) {
        Map<String, LinkProfile> byName = new LinkedHashMap<>();
        for (LinkProfile p : profiles) {
            byName.put(p.name(), p);
        }
        return Collections.unmodifiableMap(byName);
    }
}
