package io.h2bench.sampler;

import io.h2bench.client.profile.ClientCertificate;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.util.SSLManager;
import org.apache.jmeter.util.keystore.JmeterKeyStore;

/**
 * The client certificate HttpClient4 would present for this JMeter thread. JMeter's key manager
 * asks its {@link JmeterKeyStore} for an alias at each full handshake, once per thread and SSL
 * context: the value of the Keystore Configuration's alias variable, or else the next alias of the
 * configured index range in turn. The same store is used here (as SSLManager loaded it), and the
 * alias is chosen once per user on the sampling thread, where the variable can be read; the turn
 * counter is this sampler's own, so that HttpClient4 samplers in the same plan do not shift it.
 */
final class UserCertificate {

    private static final ThreadLocal<Choice> CHOSEN = new ThreadLocal<>();
    private static final AtomicInteger TURN = new AtomicInteger();
    private static final Map<String, ClientCertificate> BY_ALIAS = new ConcurrentHashMap<>();
    private static JmeterKeyStore cachedFor;

    private UserCertificate() {
    }

    /** This user's certificate, null when {@code javax.net.ssl.keyStore} holds no key. */
    static ClientCertificate current() throws IOException {
        String file = System.getProperty(SSLManager.JAVAX_NET_SSL_KEY_STORE, "");
        if (file.isEmpty() || "NONE".equals(file)) {
            return null;
        }
        JmeterKeyStore store = jmeterKeyStore();
        Choice chosen = CHOSEN.get();
        if (chosen == null || chosen.store() != store) {
            chosen = new Choice(store, choose(store));
            CHOSEN.set(chosen);
        }
        return chosen.certificate();
    }

    /** A new visitor (new SSL context in HttpClient4) chooses again. */
    static void forget() {
        CHOSEN.remove();
    }

    private static ClientCertificate choose(JmeterKeyStore store) throws IOException {
        if (store.getAliasCount() == 0) {
            return null;
        }
        synchronized (UserCertificate.class) {
            if (cachedFor != store) {
                BY_ALIAS.clear();
                TURN.set(0);
                cachedFor = store;
            }
        }
        String alias = aliasVariable(store) == null
                ? store.getAlias(Math.floorMod(TURN.getAndIncrement(), store.getAliasCount()))
                : store.getAlias();
        return BY_ALIAS.computeIfAbsent(alias, name -> entry(store, name));
    }

    /** A user's certificate and the store it came from (a new test may load another). */
    private record Choice(JmeterKeyStore store, ClientCertificate certificate) {
    }

    /** One key entry in its own store: one instance per alias, so that its users share a TLS configuration. */
    private static ClientCertificate entry(JmeterKeyStore store, String alias) {
        try {
            KeyStore single = KeyStore.getInstance("PKCS12");
            single.load(null, null);
            String password = "h2bench";
            single.setKeyEntry(alias, store.getPrivateKey(alias), password.toCharArray(), store.getCertificateChain(alias));
            return new ClientCertificate(single, password, alias);
        } catch (GeneralSecurityException | IOException failure) {
            throw new IllegalStateException("Cannot use the client certificate '" + alias + "': " + failure.getMessage(), failure);
        }
    }

    /** The store SSLManager loaded, with the index range a Keystore Configuration set (JMeter keeps it protected). */
    private static JmeterKeyStore jmeterKeyStore() throws IOException {
        try {
            return (JmeterKeyStore) JMeterInternals.GET_KEY_STORE.invoke(SSLManager.getInstance());
        } catch (ReflectiveOperationException failure) {
            throw new IOException("Cannot read JMeter's key store (javax.net.ssl.keyStore): " + failure, failure);
        }
    }

    /** The Keystore Configuration's "Variable name holding certificate alias", null when empty. */
    private static String aliasVariable(JmeterKeyStore store) throws IOException {
        try {
            String value = (String) JMeterInternals.ALIAS_VARIABLE.get(store);
            return value == null || value.isEmpty() ? null : value;
        } catch (ReflectiveOperationException failure) {
            throw new IOException("Cannot read the Keystore Configuration's alias variable: " + failure, failure);
        }
    }

    /** Looked up once: samples ask for their certificate many times a second. */
    private static final class JMeterInternals {
        static final Method GET_KEY_STORE;
        static final Field ALIAS_VARIABLE;

        static {
            try {
                GET_KEY_STORE = SSLManager.class.getDeclaredMethod("getKeyStore");
                GET_KEY_STORE.setAccessible(true);
                ALIAS_VARIABLE = JmeterKeyStore.class.getDeclaredField("clientCertAliasVarName");
                ALIAS_VARIABLE.setAccessible(true);
            } catch (ReflectiveOperationException failure) {
                throw new ExceptionInInitializerError(failure);
            }
        }
    }
}
