package io.h2bench.server;

import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The JDK's own HTTP client, a client that is not Jetty. It trusts any certificate; host names are
 * still checked, and the generated certificate covers localhost, 127.0.0.1 and ::1.
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
