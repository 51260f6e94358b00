package io.h2bench.server.objects;

import java.util.Locale;
import java.util.regex.Pattern;

/** Parses the query values of the dynamic objects, refusing anything out of range with a reason. */
final class Quantities {

    static final long MAX_SIZE = 64L * 1024 * 1024;
    static final long MAX_DELAY_MS = 60_000;
    /** Compiled once: String.matches compiled it for every request, 1-2 % of a short request's CPU. */
    private static final Pattern NOT_DECIMAL = Pattern.compile("[^0-9.]");

    private Quantities() {
    }

    /** A byte count such as {@code 100}, {@code 44k}, {@code 2m} or {@code 0.1m} (k = 1024). */
    static long size(String name, String value, long fallback) {
        if (value == null || value.isEmpty()) {
            return fallback;
        }
        String text = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (text.endsWith("k")) {
            unit = 1024;
        } else if (text.endsWith("m")) {
            unit = 1024 * 1024;
        }
        String number = unit == 1 ? text : text.substring(0, text.length() - 1);
        double bytes = parse(name, value, number) * unit;
        if (bytes > MAX_SIZE) {
            throw new IllegalArgumentException(name + " must be at most 64m, was " + value);
        }
        return Math.round(bytes);
    }

    /** Milliseconds, a whole number from 0 to 60000. */
    static long delay(String name, String value) {
        if (value == null || value.isEmpty()) {
            return 0;
        }
        double millis = parse(name, value, value.trim().toLowerCase(Locale.ROOT).replaceFirst("ms$", ""));
        if (millis > MAX_DELAY_MS) {
            throw new IllegalArgumentException(name + " must be at most 60000 ms, was " + value);
        }
        return Math.round(millis);
    }

    /** A whole number from {@code min} to {@code max}. */
    static int count(String name, String value, int fallback, int min, int max) {
        if (value == null || value.isEmpty()) {
            return fallback;
        }
        try {
            int count = Integer.parseInt(value.trim());
            if (count < min || count > max) {
                throw new IllegalArgumentException(name + " must be from " + min + " to " + max + ", was " + value);
            }
            return count;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was " + value);
        }
    }

    private static double parse(String name, String original, String number) {
        try {
            double parsed = Double.parseDouble(number);
            if (Double.isNaN(parsed) || Double.isInfinite(parsed) || parsed < 0 || NOT_DECIMAL.matcher(number).find()) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a non-negative number, was " + original);
        }
    }
}
