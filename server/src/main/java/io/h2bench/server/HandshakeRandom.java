package io.h2bench.server;

import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.security.Security;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The random source of the TLS listeners' SSLContext: a DRBG per thread, so that handshakes on the
 * pool's threads never queue for one lock. JSSE's default, NativePRNG, mixes every draw through one
 * SHA1PRNG under a lock shared by the whole JVM, and a TLS 1.3 handshake draws from it several times
 * (server random, session IDs, the ticket, the key share); 1,000 TLS connections opened at once on a fresh
 * server left 136 of its 200 threads waiting for that lock and the server stalled. A handshake's
 * signature draws from the JVM's default random instead (JSSE passes none), so the server makes this
 * kind the default too ({@link #installAsDefault()}). Only the listeners on JSSE ({@code --tls-provider jsse})
 * draw from it: Conscrypt ignores the random its SSLContext is given, and BoringSSL keeps a generator per
 * thread of its own. The default stays the JVM's for the rest (the warm-up's JSSE client among them).
 */
final class HandshakeRandom {

    /** The algorithm name the random reports ({@link SecureRandom#getAlgorithm()}). */
    static final String ALGORITHM = "DRBG-per-thread";

    private static final String PROVIDER_NAME = "h2bench-handshake-random";

    private HandshakeRandom() {
    }

    /** A random whose draws go to the calling thread's own DRBG (SHA-256 Hash_DRBG, the JDK's default DRBG). */
    static SecureRandom create() {
        return create(HandshakeRandom::newDrbg);
    }

    /** A random whose draws go to the calling thread's own generator, made by {@code generators} on its first draw. */
    static SecureRandom create(Supplier<SecureRandom> generators) {
        try {
            return SecureRandom.getInstance(ALGORITHM, new PerThreadProvider(generators));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the provider registered " + ALGORITHM + " itself", e);
        }
    }

    /**
     * Makes {@code new SecureRandom()}, and so the JDK's own default random that signatures draw from
     * when given none, one of these for the rest of the JVM's life. Only a JVM that has not drawn from
     * that default yet changes it: the JDK keeps the first it made.
     */
    static synchronized void installAsDefault() {
        if (Security.getProvider(PROVIDER_NAME) == null) {
            Security.insertProviderAt(new PerThreadProvider(HandshakeRandom::newDrbg), 1);
        }
    }

    /** Whether java.security.SecureRandom calls {@code random} unsynchronised: its provider declares it ThreadSafe. */
    static boolean declaredThreadSafe(SecureRandom random) {
        return Boolean.parseBoolean(random.getProvider().getProperty("SecureRandom." + random.getAlgorithm() + " ThreadSafe"));
    }

    private static SecureRandom newDrbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK since 9 has DRBG", e);
        }
    }

    /** Declares the service ThreadSafe: java.security.SecureRandom otherwise locks itself around every draw. */
    private static final class PerThreadProvider extends Provider {

        PerThreadProvider(Supplier<SecureRandom> generators) {
            super(PROVIDER_NAME, "1", "One DRBG per thread for the TLS listeners' handshakes");
            putService(new Service(this, "SecureRandom", ALGORITHM, PerThreadSpi.class.getName(), List.of(),
                    Map.of("ThreadSafe", "true")) {
                @Override
                public Object newInstance(Object constructorParameter) {
                    return new PerThreadSpi(generators);
                }
            });
        }
    }

    private static final class PerThreadSpi extends SecureRandomSpi {

        private final ThreadLocal<SecureRandom> generator;

        PerThreadSpi(Supplier<SecureRandom> generators) {
            this.generator = ThreadLocal.withInitial(generators);
        }

        @Override
        protected void engineSetSeed(byte[] seed) {
            generator.get().setSeed(seed);
        }

        @Override
        protected void engineNextBytes(byte[] bytes) {
            generator.get().nextBytes(bytes);
        }

        @Override
        protected byte[] engineGenerateSeed(int numBytes) {
            return generator.get().generateSeed(numBytes);
        }
    }
}
