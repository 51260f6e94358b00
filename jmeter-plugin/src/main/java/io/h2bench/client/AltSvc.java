package io.h2bench.client;

import java.util.Locale;

/**
 * The HTTP/3 alternative an {@code Alt-Svc} header (RFC 7838) advertises, as a browser reads it:
 * the first {@code h3} entry; {@code clear} withdraws every alternative. Only the port is taken:
 * an alternative on another host would need a certificate check for that host, which browsers do
 * and this client, trusting every server (as JMeter does), cannot make meaningful.
 */
final class AltSvc {

    /** What a header says: no word on h3 ({@link #NONE}), h3 on a port, or {@link #CLEAR}. */
    static final int NONE = -1;
    static final int CLEAR = 0;

    private AltSvc() {
    }

    /** The UDP port of the first same-host {@code h3} alternative, {@link #CLEAR}, or {@link #NONE}. */
    static int h3Port(String header) {
        if (header == null || header.isBlank()) {
            return NONE;
        }
        if (header.trim().equalsIgnoreCase("clear")) {
            return CLEAR;
        }
        for (String entry : header.split(",")) {
            String alternative = entry.split(";", 2)[0].trim();
            int equals = alternative.indexOf('=');
            if (equals < 0 || !alternative.substring(0, equals).trim().toLowerCase(Locale.ROOT).equals("h3")) {
                continue;
            }
            String authority = alternative.substring(equals + 1).trim().replace("\"", "");
            int colon = authority.lastIndexOf(':');
            if (colon == 0) {
                try {
                    return Integer.parseInt(authority.substring(1));
                } catch (NumberFormatException malformed) {
                    return NONE;
                }
            }
        }
        return NONE;
    }
}
