package io.h2bench.server.netem.kernel;

import io.h2bench.server.TlsMaterial;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** TLS for a JDK client of the server behind the link, which names the link's address in its certificate. */
final class LinkTls {

    private LinkTls() {
    }

    /** Trusts exactly the server's certificate, so the name check is all that can fail. */
    static SSLContext trusting(TlsMaterial tls) throws Exception {
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            server.load(in, tls.password().toCharArray());
        }
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        trusted.setCertificateEntry("h2bench", server.getCertificate(server.aliases().nextElement()));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
