package io.h2bench.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One server per abuse test class, on port 0, with its bystanders. */
abstract class AbuseTestBase {

    static H2BenchServer server;
    static Bystanders bystanders;

    @BeforeAll
    static void startServer() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral());
        bystanders = new Bystanders(server);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }
}
