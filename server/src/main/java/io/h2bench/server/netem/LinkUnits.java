package io.h2bench.server.netem;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints the quantities a user types for a link: durations, bit rates and loss rates.
 * Every parse error is an {@link IllegalArgumentException} whose message fits on one line.
 */
public final class LinkUnits {

    private static final Pattern NUMBER_AND_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-z/%]*)");

    private LinkUnits() {
    }

    /** "100ms", "0.1s", "250us"; a bare number is milliseconds, as JMeter users count. */
    public static Duration parseDuration(String text) {
        Matcher m = match(text, "a duration such as 100ms or 0.5s");
        double value = Double.parseDouble(m.group(1));
        double nanosPerUnit = switch (m.group(2)) {
            case "", "ms" -> 1e6;
            case "s" -> 1e9;
            case "us" -> 1e3;
            default -> throw new IllegalArgumentException(
                    "'" + text + "' has unknown unit '" + m.group(2) + "': use ms, s or us");
        };
        double nanos = value * nanosPerUnit;
        if (nanos > Duration.ofMinutes(10).toNanos()) {
            throw new IllegalArgumentException("'" + text + "' is longer than the 10 minutes allowed");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    /**
     * "1.6mbit", "750kbit", "1gbit", "500000bit", also binary "kibit"/"mibit"; "unlimited" or "0" is 0.
     * Bytes-per-second units
     * are refused: tc reads "mbps" as megabytes while most people mean megabits.
     */
    public static long parseBitRate(String text) {
        if (text != null && (text.trim().equalsIgnoreCase("unlimited") || text.trim().equals("0"))) {
            return 0;
        }
        Matcher m = match(text, "a bit rate such as 1.6mbit or 750kbit");
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2).endsWith("/s") ? m.group(2).substring(0, m.group(2).length() - 2) : m.group(2);
        double multiplier = switch (unit) {
            case "bit" -> 1;
            case "kbit" -> 1e3;
            case "mbit" -> 1e6;
            case "gbit" -> 1e9;
            case "kibit" -> 1024;
            case "mibit" -> 1024 * 1024;
            case "gibit" -> 1024 * 1024 * 1024;
            case "bps", "kbps", "mbps", "gbps" -> throw new IllegalArgumentException("'" + text
                    + "' is ambiguous (bits or bytes?): write it in bit, kbit, mbit or gbit, e.g. 1.6mbit");
            case "" -> throw new IllegalArgumentException(
                    "'" + text + "' needs a unit: bit, kbit, mbit or gbit, e.g. 1.6mbit");
            default -> throw new IllegalArgumentException(
                    "'" + text + "' has unknown unit '" + m.group(2) + "': use bit, kbit, mbit or gbit");
        };
        long bits = Math.round(value * multiplier);
        if (bits < 1000) {
            throw new IllegalArgumentException("'" + text + "' is below the 1 kbit/s minimum");
        }
        return bits;
    }

    /** "1%", "0.3%" or a bare "1" (also percent, as tc netem writes loss). */
    public static double parseLoss(String text) {
        Matcher m = match(text, "a loss rate such as 1% or 0.3%");
        if (!m.group(2).isEmpty() && !m.group(2).equals("%")) {
            throw new IllegalArgumentException("'" + text + "' must be a percentage such as 1% or 0.3%");
        }
        double percent = Double.parseDouble(m.group(1));
        if (percent >= 50) {
            throw new IllegalArgumentException("'" + text + "' is too much loss: use less than 50%");
        }
        return percent / 100;
    }

    /** "100 ms", "2.5 ms", "250 us". */
    public static String formatDuration(Duration d) {
        long micros = d.toNanos() / 1000;
        if (micros % 1000 == 0) {
            return micros / 1000 + " ms";
        }
        return micros < 1000 ? micros + " us" : trim(micros / 1000.0) + " ms";
    }

    /** "unlimited", "256 kbit/s", "1.573 Mbit/s". */
    public static String formatBitRate(long bitsPerSecond) {
        if (bitsPerSecond == 0) {
            return "unlimited";
        }
        if (bitsPerSecond >= 1_000_000_000) {
            return trim(bitsPerSecond / 1e9) + " Gbit/s";
        }
        if (bitsPerSecond >= 1_000_000) {
            return trim(bitsPerSecond / 1e6) + " Mbit/s";
        }
        return trim(bitsPerSecond / 1e3) + " kbit/s";
    }

    /** "1 %", "0.3 %". */
    public static String formatLoss(double loss) {
        return trim(loss * 100) + " %";
    }

    private static Matcher match(String text, String expected) {
        String normal = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher m = NUMBER_AND_UNIT.matcher(normal);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not " + expected);
        }
        return m;
    }

    private static String trim(double value) {
        String s = String.format(Locale.ROOT, "%.3f", value);
        return s.replaceAll("\\.?0+$", "");
    }
}
