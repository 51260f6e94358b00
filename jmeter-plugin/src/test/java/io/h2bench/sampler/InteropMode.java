package io.h2bench.sampler;

import io.h2bench.client.exchange.ProtocolMode;

/**
 * The columns of the interoperability matrix: every way the sampler can be told to speak to an
 * origin, as a plan sets it (a version, or none so that the URL's scheme chooses).
 */
enum InteropMode {
    H1("h1", ProtocolMode.HTTP_1_1, "http", "HTTP/1.1"),
    H1_TLS("h1 over TLS", ProtocolMode.HTTP_1_1, "https", "HTTP/1.1"),
    H2("h2 (ALPN)", ProtocolMode.HTTP_2, "https", "HTTP/2.0"),
    H2C("h2c prior knowledge", ProtocolMode.H2C, "http", "HTTP/2.0"),
    H2C_UPGRADE("h2c Upgrade", ProtocolMode.H2C_UPGRADE, "http", "HTTP/2.0"),
    H3("h3", ProtocolMode.HTTP_3, "https", "HTTP/3"),
    H3_ALT_SVC("h3 by Alt-Svc", ProtocolMode.HTTP_3_ALT_SVC, "https", "HTTP/3"),
    SCHEME_HTTP("by scheme: http", null, "http", "HTTP/1.1"),
    SCHEME_HTTPS("by scheme: https", null, "https", "HTTP/2.0");

    final String label;
    /** null: none set, the scheme chooses (HTTP/1.1 for http, HTTP/2 with an ALPN fallback for https). */
    final ProtocolMode mode;
    final String scheme;
    /** What the sample's "Protocol:" line must say when the server offers the mode. */
    final String protocol;

    InteropMode(String label, ProtocolMode mode, String scheme, String protocol) {
        this.label = label;
        this.mode = mode;
        this.scheme = scheme;
        this.protocol = protocol;
    }

    boolean tls() {
        return scheme.equals("https");
    }
}
