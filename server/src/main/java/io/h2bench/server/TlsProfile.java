package io.h2bench.server;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.eclipse.jetty.http2.HTTP2Cipher;

/**
 * What the TLS listeners show a client: the generated certificate's key and the order in which the
 * server picks a cipher suite (the server's order decides: Jetty asks JSSE to use it).
 * {@link #WEB}, the default, serves as maintained web servers serve browsers today; {@link #JSSE} is
 * what h2bench served before issue 42, for plans that need to measure against that.
 */
public enum TlsProfile {

    /**
     * An ECDSA P-256 certificate and AES-128-GCM first, then AES-256-GCM, then ChaCha20 (TLS 1.3,
     * and the ECDHE suites of TLS 1.2): Caddy's (Go's) order on a machine with AES instructions,
     * and the order browsers offer, which nginx follows.
     */
    WEB("web", KeyType.ECDSA_P256, List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
            "ECDSA P-256 certificate, AES-128-GCM first"),

    /** A 2048-bit RSA certificate and JSSE's own order (AES-256-GCM first), as h2bench served before issue 42. */
    JSSE("jsse", KeyType.RSA_2048, List.of(), "RSA 2048 certificate, JSSE's order (AES-256-GCM first)");

    /** The key of a generated certificate, and the file it is kept in under {@code ~/.h2bench}. */
    public enum KeyType {
        ECDSA_P256("EC", 256, "SHA256withECDSA", "localhost-ecdsa.p12"),
        /** Kept in the file that versions before issue 42 generated, which they and {@code --tls-profile jsse} share. */
        RSA_2048("RSA", 2048, "SHA256withRSA", "localhost.p12");

        private final String algorithm;
        private final int bits;
        private final String signature;
        private final String fileName;

        KeyType(String algorithm, int bits, String signature, String fileName) {
            this.algorithm = algorithm;
            this.bits = bits;
            this.signature = signature;
            this.fileName = fileName;
        }

        /** The JCA key algorithm: {@code EC} or {@code RSA}. */
        public String algorithm() {
            return algorithm;
        }

        public int bits() {
            return bits;
        }

        /** The self-signature's algorithm. */
        public String signature() {
            return signature;
        }

        public String fileName() {
            return fileName;
        }
    }

    private final String flagValue;
    private final KeyType keyType;
    private final List<String> preferredSuites;
    private final String description;

    TlsProfile(String flagValue, KeyType keyType, List<String> preferredSuites, String description) {
        this.flagValue = flagValue;
        this.keyType = keyType;
        this.preferredSuites = preferredSuites;
        this.description = description;
    }

    /** {@code web} or {@code jsse}, as {@code --tls-profile} takes it. */
    public String flagValue() {
        return flagValue;
    }

    /** The key a generated certificate gets ({@code --keystore} serves the user's key as it is). */
    public KeyType keyType() {
        return keyType;
    }

    /** For the banner and the docs. */
    public String description() {
        return description;
    }

    /**
     * The order of the enabled cipher suites: this profile's preferred ones first, in its order; the
     * rest as HTTP/2 wants them (RFC 7540 §9.2.2: the suites it forbids last), as before.
     */
    public Comparator<String> cipherOrder() {
        Comparator<String> preferred = Comparator.comparingInt(suite -> {
            int rank = preferredSuites.indexOf(suite);
            return rank < 0 ? preferredSuites.size() : rank;
        });
        return preferred.thenComparing(HTTP2Cipher.COMPARATOR);
    }

    /** As the flag takes it, so that {@code --help} shows the default as {@code web}. */
    @Override
    public String toString() {
        return flagValue;
    }

    /** The profile {@code --tls-profile NAME} names. */
    public static TlsProfile of(String name) {
        for (TlsProfile profile : values()) {
            if (profile.flagValue.equals(name.toLowerCase(Locale.ROOT))) {
                return profile;
            }
        }
        throw new IllegalArgumentException("--tls-profile is web or jsse, was " + name);
    }
}
