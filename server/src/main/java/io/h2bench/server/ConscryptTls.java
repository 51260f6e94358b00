package io.h2bench.server;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.Provider;
import java.security.Security;

import javax.net.ssl.SSLEngine;

/**
 * BoringSSL through Conscrypt, reached by class name: the server's sources also compile into the
 * JMeter plugin's tests, whose class path has no Conscrypt (the plugin must not ship it), and there
 * the TLS listeners run on JSSE as {@link TlsProvider} falls back where Conscrypt cannot load.
 */
final class ConscryptTls {

    /** The name Conscrypt's provider registers under, which Jetty's SslContextFactory asks for. */
    static final String PROVIDER = "Conscrypt";
    private static final String PROVIDER_CLASS = "org.conscrypt.OpenSSLProvider";
    /** Jetty's ALPN for Conscrypt's SSLEngine; without it no connection could choose h2. */
    private static final String ALPN_CLASS = "org.eclipse.jetty.alpn.conscrypt.server.ConscryptServerALPNProcessor";

    private static String unavailable;
    private static boolean checked;
    private static MethodHandle setUseSessionTickets;

    private ConscryptTls() {
    }

    /**
     * Why Conscrypt cannot run here ({@code null} when it can): missing from the class path, or its
     * native library, which exists for Linux, macOS and Windows on x86-64 only, did not load. Registers
     * its provider at the end of the JDK's list, as Jetty's ALPN module does, so that nothing else in
     * the JVM (the warm-up's client, key stores) changes provider.
     */
    static synchronized String unavailableReason() {
        if (!checked) {
            checked = true;
            unavailable = load();
        }
        return unavailable;
    }

    /** Session tickets, which Conscrypt issues only when asked (TLS 1.2's; BoringSSL as built sends none for 1.3). */
    static void enableSessionTickets(SSLEngine engine) {
        if (setUseSessionTickets != null && engine.getClass().getName().startsWith("org.conscrypt.")) {
            try {
                setUseSessionTickets.invoke(engine, true);
            } catch (Throwable e) {
                throw new IllegalStateException("Conscrypt refused session tickets: " + e, e);
            }
        }
    }

    private static String load() {
        try {
            Class.forName(ALPN_CLASS);
            if (Security.getProvider(PROVIDER) == null) {
                Security.addProvider((Provider) Class.forName(PROVIDER_CLASS).getConstructor().newInstance());
            }
            setUseSessionTickets = MethodHandles.publicLookup().findStatic(Class.forName("org.conscrypt.Conscrypt"), "setUseSessionTickets",
                    MethodType.methodType(void.class, SSLEngine.class, boolean.class));
            return null;
        } catch (ClassNotFoundException e) {
            return "Conscrypt is not on the class path (" + e.getMessage() + ")";
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return "Conscrypt did not load on " + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ": " + cause;
        }
    }
}
