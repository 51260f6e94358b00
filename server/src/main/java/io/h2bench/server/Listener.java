package io.h2bench.server;

/** The four TCP listeners the server opens (h3, on UDP, is {@link Http3Listener}); every test object is served on each of them. */
public enum Listener {
    /** HTTP/1.1 in clear text. */
    H1("h1", false, 8000, "HTTP/1.1"),
    /** HTTPS whose ALPN offers {@code http/1.1} only. */
    H1_TLS("h1-tls", true, 8001, "HTTP/1.1 over TLS"),
    /** HTTPS whose ALPN offers {@code h2} first, then {@code http/1.1}. */
    H2("h2", true, 8002, "HTTP/2 over TLS (ALPN)"),
    /** Clear-text HTTP/2 by prior knowledge, and HTTP/1.1 with {@code Upgrade: h2c}. */
    H2C("h2c", false, 8003, "HTTP/2 clear text (prior knowledge or Upgrade)");

    private final String id;
    private final boolean secure;
    private final int defaultPort;
    private final String description;

    Listener(String id, boolean secure, int defaultPort, String description) {
        this.id = id;
        this.secure = secure;
        this.defaultPort = defaultPort;
        this.description = description;
    }

    /** The short name used in labels, URLs lines and plans: {@code h1}, {@code h1-tls}, {@code h2}, {@code h2c}. */
    public String id() {
        return id;
    }

    public boolean secure() {
        return secure;
    }

    public String scheme() {
        return secure ? "https" : "http";
    }

    public int defaultPort() {
        return defaultPort;
    }

    public String description() {
        return description;
    }
}
