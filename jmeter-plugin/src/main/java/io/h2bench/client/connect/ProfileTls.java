package io.h2bench.client.connect;

import io.h2bench.client.profile.ClientCertificate;
import io.h2bench.client.profile.ConnectionProfile;
import java.security.KeyStore;
import java.security.cert.CRL;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import org.eclipse.jetty.io.ssl.SslClientConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The client's TLS: trusts the server it is pointed at, as JMeter's own HTTP sampler does, and
 * offers the client certificate of the user's {@link ConnectionProfile}. Jetty asks it for each
 * connection's engine with the connection's context, which names the user's profile; one trusting
 * configuration with a key manager is kept per certificate.
 */
final class ProfileTls extends SslContextFactory.Client implements SslClientConnectionFactory.SslEngineFactory {

    private final Map<ClientCertificate, SslContextFactory.Client> withCertificate = new ConcurrentHashMap<>();

    ProfileTls() {
        super(true);
        setEndpointIdentificationAlgorithm(null);
    }

    @Override
    public SSLEngine newSslEngine(String host, int port, Map<String, Object> context) {
        ClientCertificate certificate = ProfileRouting.profileOf(context).certificate();
        SslContextFactory.Client tls = certificate == null ? this : withCertificate.computeIfAbsent(certificate, this::start);
        SSLEngine engine = tls.newSSLEngine(host, port);
        engine.setUseClientMode(true);
        tls.customize(engine);
        return engine;
    }

    private SslContextFactory.Client start(ClientCertificate certificate) {
        SslContextFactory.Client tls = new TrustingWithKey();
        tls.setEndpointIdentificationAlgorithm(null);
        tls.setKeyStore(certificate.keyStore());
        tls.setKeyStorePassword(certificate.password());
        if (certificate.alias() != null && !certificate.alias().isEmpty()) {
            tls.setCertAlias(certificate.alias());
        }
        try {
            addManaged(tls);
            tls.start();
        } catch (Exception failure) {
            throw new IllegalStateException("Cannot use the client certificate"
                    + (certificate.alias() == null ? "" : " '" + certificate.alias() + "'") + ": " + failure.getMessage(), failure);
        }
        return tls;
    }

    /** Jetty would make the key store the trust store too; the server must still be trusted as it is. */
    private static final class TrustingWithKey extends SslContextFactory.Client {

        TrustingWithKey() {
            super(true);
        }

        @Override
        protected TrustManager[] getTrustManagers(KeyStore trustStore, Collection<? extends CRL> crls) {
            return TRUST_ALL_CERTS;
        }
    }
}
