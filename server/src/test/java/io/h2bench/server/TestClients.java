package io.h2bench.server;

import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.eclipse.jetty.client.HttpClientTransport;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The JDK's own HTTP client, a client that is not Jetty. It trusts any certificate; host names are
 * still checked, and the generated certificate covers localhost, 127.0.0.1 and ::1. And Jetty's client
 * for a given listener.
 */
final class TestClients {

    private TestClients() {
    }

    static HttpClient jdk(HttpClient.Version version) {
        return HttpClient.newBuilder()
                .version(version)
                .sslContext(trustAll())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** Jetty's client speaking a listener's protocol (h2c by prior knowledge), trusting any certificate; not started. */
    static org.eclipse.jetty.client.HttpClient jetty(Listener listener) {
        ClientConnector connector = new ClientConnector();
        SslContextFactory.Client tls = new SslContextFactory.Client(true);
        tls.setEndpointIdentificationAlgorithm(null);
        connector.setSslContextFactory(tls);
        HttpClientTransport transport = switch (listener) {
            case H1, H1_TLS -> new HttpClientTransportOverHTTP(connector);
            case H2, H2C -> new HttpClientTransportOverHTTP2(new HTTP2Client(connector));
        };
        return new org.eclipse.jetty.client.HttpClient(transport);
    }

    static SSLContext trustAll() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, new SecureRandom());
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
