package io.h2bench.sampler;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A Jetty server on 127.0.0.1 that requires a client certificate ({@code setNeedClientAuth}): one
 * HTTP/1.1-over-TLS port and one h2 (ALPN) port; it answers with the subject of the certificate it
 * saw. Key store and trust store are one PKCS12 file made by {@link #makeKeyStore} (and
 * {@link #addKey}): the server trusts exactly the certificates in it.
 */
final class ClientCertificateServer implements AutoCloseable {

    static final String PASSWORD = "changeit";

    private final Server server = new Server();
    private final ServerConnector h1;
    private final ServerConnector h2;

    ClientCertificateServer(Path keyStore) throws Exception {
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(keyStore.toString());
        tls.setKeyStorePassword(PASSWORD);
        tls.setTrustStorePath(keyStore.toString());
        tls.setTrustStorePassword(PASSWORD);
        tls.setNeedClientAuth(true);
        HttpConfiguration config = new HttpConfiguration();
        config.addCustomizer(new SecureRequestCustomizer(false));
        h1 = connector(new SslConnectionFactory(tls, "http/1.1"), new HttpConnectionFactory(config));
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        h2 = connector(new SslConnectionFactory(tls, alpn.getProtocol()), alpn,
                new HTTP2ServerConnectionFactory(config), new HttpConnectionFactory(config));
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                EndPoint.SslSessionData tls = (EndPoint.SslSessionData) request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE);
                String subject = tls.peerCertificates()[0].getSubjectX500Principal().getName();
                Content.Sink.write(response, true, "client certificate accepted: " + subject, callback);
                return true;
            }
        });
        server.start();
    }

    private ServerConnector connector(org.eclipse.jetty.server.ConnectionFactory... factories) {
        ServerConnector connector = new ServerConnector(server, factories);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        return connector;
    }

    /** A GET of https://127.0.0.1:{@code port}/ on {@code sampler}. */
    static HTTPSamplerBase aim(HTTPSamplerBase sampler, int port) {
        sampler.setMethod("GET");
        sampler.setProtocol("https");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(port);
        sampler.setPath("/");
        return sampler;
    }

    int h1Port() {
        return h1.getLocalPort();
    }

    int h2Port() {
        return h2.getLocalPort();
    }

    /** A PKCS12 file with one self-signed key pair for CN=localhost, made with the JDK's keytool. */
    static void makeKeyStore(Path file) throws Exception {
        addKey(file, "tester", "localhost");
    }

    /** One more self-signed key pair, for CN={@code name}, in the PKCS12 file (made if absent). */
    static void addKey(Path file, String alias, String name) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", alias, "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=" + name, "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
