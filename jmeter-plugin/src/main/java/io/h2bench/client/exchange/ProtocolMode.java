package io.h2bench.client.exchange;

import java.util.Locale;

/**
 * Which HTTP protocol a virtual user speaks to an origin. The names are the values of the sampler
 * property {@code H2Bench.httpVersion}, so a .jmx plan can set them as plain strings.
 */
public enum ProtocolMode {
    /** HTTP/1.1 only, over http or https; up to N connections per origin. */
    HTTP_1_1,
    /**
     * https: ALPN offering h2 first; http/1.1 only when the request allows the fall-back
     * ({@link ExchangeRequest#alpnFallback()}), else the exchange fails. http: h2c with prior knowledge.
     */
    HTTP_2,
    /** Cleartext HTTP/2 with prior knowledge: the connection preface is sent at once. */
    H2C,
    /** Cleartext HTTP/1.1 request with {@code Upgrade: h2c}; the connection switches on 101. */
    H2C_UPGRADE,
    /** HTTP/3 straight to QUIC on the URL's port number (UDP), as a browser told by a previous visit. */
    HTTP_3,
    /**
     * As a browser on a first visit: HTTP/2 over TLS (ALPN, HTTP/1.1 allowed), then HTTP/3 for the
     * origin once a response advertised {@code h3} in its {@code Alt-Svc} header.
     */
    HTTP_3_ALT_SVC;

    private record Parsed(String value, ProtocolMode mode) {
    }

    /** The last value parsed and its mode (one per plan, usually; a race only parses again). */
    private static volatile Parsed lastParsed;

    /**
     * Reads a property value; blank means {@link #HTTP_2}. Anything else unknown is refused, so a
     * typo in a plan fails its samples with a clear message instead of measuring another protocol.
     */
    public static ProtocolMode parse(String value) {
        if (value == null || value.isBlank()) {
            return HTTP_2;
        }
        // Read once per sample: a plan's one value is recognised by an equals, not parsed again.
        Parsed seen = lastParsed;
        if (seen != null && seen.value().equals(value)) {
            return seen.mode();
        }
        try {
            ProtocolMode mode = valueOf(value.trim().toUpperCase(Locale.ROOT));
            lastParsed = new Parsed(value, mode);
            return mode;
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("HTTP version must be one of HTTP_1_1, HTTP_2, H2C, H2C_UPGRADE, HTTP_3, "
                    + "HTTP_3_ALT_SVC; was '"
                    + value + "'", unknown);
        }
    }

    /** Whether this mode may speak HTTP/3 (over QUIC, which no HTTP proxy carries). */
    public boolean http3() {
        return this == HTTP_3 || this == HTTP_3_ALT_SVC;
    }
}
