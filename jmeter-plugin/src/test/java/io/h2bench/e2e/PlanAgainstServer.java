package io.h2bench.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;

/**
 * Base of the tests that run an h2bench plan: the project's server on free ports around each test,
 * and the plan properties that point the plan at it. Skipped until the built jar has the sampler.
 */
abstract class PlanAgainstServer {

    protected final HeadlessJMeter jmeter = HeadlessJMeter.assembled();
    protected H2BenchServer server;

    @BeforeEach
    void startServer() throws Exception {
        assumeTrue(jmeter.pluginHasSampler(), "the plugin jar has no " + HeadlessJMeter.SAMPLER_CLASS + " yet");
        server = H2BenchServer.start(ServerSettings.ephemeral());
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /**
     * host, the four TCP ports and the h3 (UDP) port, as the plans' ${__P(...)} properties name them, plus
     * iterations; h3=false when the server started no h3 listener, as bin/compare and the sweeps pass it.
     */
    protected Map<String, String> planProperties(int iterations) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("host", "127.0.0.1");
        properties.put("h1_port", String.valueOf(server.port(Listener.H1)));
        properties.put("tls_port", String.valueOf(server.port(Listener.H1_TLS)));
        properties.put("h2_port", String.valueOf(server.port(Listener.H2)));
        properties.put("h2c_port", String.valueOf(server.port(Listener.H2C)));
        if (hasH3()) {
            properties.put("h3_port", String.valueOf(server.h3Port()));
        } else {
            properties.put("h3", "false");
        }
        properties.put("iterations", String.valueOf(iterations));
        return properties;
    }

    /** True when the server has an h3 listener; {@link H2BenchServer#h3NotStartedReason()} says why not otherwise. */
    protected boolean hasH3() {
        return server.h3Port() > 0;
    }
}
