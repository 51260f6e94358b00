package io.h2bench.report;

/**
 * A sample label read as {@code <protocol> <object>}, the convention of h2bench's plans
 * ("h2 page", "h1-tls large-text"). A label without a space is a protocol alone ("h2c" in the
 * smoke plan); a user's own labels still group, with their first word taken as the "protocol".
 */
public record LabelKey(String protocol, String object) {

    public static LabelKey parse(String label) {
        String trimmed = label.trim();
        int space = trimmed.indexOf(' ');
        if (space < 0) {
            return new LabelKey(trimmed, "");
        }
        return new LabelKey(trimmed.substring(0, space), trimmed.substring(space + 1).trim());
    }

    public String label() {
        return object.isEmpty() ? protocol : protocol + " " + object;
    }
}
