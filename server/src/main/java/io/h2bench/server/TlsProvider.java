package io.h2bench.server;

import java.util.Locale;

/**
 * Which TLS implementation the TCP TLS listeners (h1-tls, h2) run on. {@link #CONSCRYPT}, the
 * default, is BoringSSL through Conscrypt: native code, as maintained web servers' TLS is, where
 * JSSE's handshake on a fresh JVM cost 3 to 10 times the server time of Caddy's and nginx's
 * (issue 42). {@link #JSSE} is what h2bench ran on before, one flag away. The h3 listener is not
 * concerned: it runs BoringSSL through Netty's quiche already.
 */
public enum TlsProvider {

    /**
     * BoringSSL: TLS 1.3's cipher is the client's first choice among AES-128-GCM, AES-256-GCM and
     * ChaCha20 (as nginx picks; BoringSSL lets no server order them), TLS 1.2's the profile's order.
     */
    CONSCRYPT("conscrypt", "Conscrypt (BoringSSL)", "TLS 1.3 cipher in the client's order, as nginx"),

    /** The JDK's TLS, in the profile's order for TLS 1.3 too: as h2bench served before. */
    JSSE("jsse", "JSSE (the JDK's)", "every cipher in the profile's order, as before");

    private final String flagValue;
    private final String implementation;
    private final String cipherChoice;

    TlsProvider(String flagValue, String implementation, String cipherChoice) {
        this.flagValue = flagValue;
        this.implementation = implementation;
        this.cipherChoice = cipherChoice;
    }

    /** {@code conscrypt} or {@code jsse}, as {@code --tls-provider} takes it. */
    public String flagValue() {
        return flagValue;
    }

    /** For the banner: what runs the handshakes and how the TLS 1.3 cipher is chosen. */
    public String description() {
        return implementation + ", " + cipherChoice;
    }

    /**
     * The banner's line: the provider the TCP TLS listeners run on and what a client sees of it, or
     * why they run on JSSE when Conscrypt was asked for ({@code fallbackReason}, else {@code null}).
     */
    static String bannerLine(TlsProvider running, String fallbackReason) {
        String line = "tls: provider " + running.flagValue + " on h1-tls and h2: " + running.description();
        if (fallbackReason != null) {
            return line + " (--tls-provider conscrypt: " + fallbackReason + ")";
        }
        return line + (running == CONSCRYPT ? " (--tls-provider jsse: the JDK's TLS, as before)" : "");
    }

    /** As the flag takes it, so that {@code --help} shows the default as {@code conscrypt}. */
    @Override
    public String toString() {
        return flagValue;
    }

    /** The provider {@code --tls-provider NAME} names. */
    public static TlsProvider of(String name) {
        for (TlsProvider provider : values()) {
            if (provider.flagValue.equals(name.toLowerCase(Locale.ROOT))) {
                return provider;
            }
        }
        throw new IllegalArgumentException("--tls-provider is conscrypt or jsse, was " + name);
    }
}
