package io.h2bench.server;

import java.net.http.HttpClient;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One server on free ports for a whole test class, and the JDK's client asking for HTTP/2 everywhere. */
abstract class SharedServerTest {

    protected static H2BenchServer server;
    protected static HttpClient client;

    @BeforeAll
    static void startServer() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral());
        // ALPN offering h2 over TLS, Upgrade: h2c in clear text.
        client = TestClients.jdk(HttpClient.Version.HTTP_2);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }
}
