package io.h2bench.sampler;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/** The project's server on port 0 plus one sampler aimed at it, as a JMeter thread would run it. */
final class SamplerFixture implements AutoCloseable {

    final H2BenchServer server;
    final Http2Sampler sampler;

    SamplerFixture(String name) throws Exception {
        // Before the first sampler: HTTPSamplerBase reads its parsers from the properties once.
        InProcessJMeter.init();
        server = H2BenchServer.start(ServerSettings.ephemeral());
        sampler = new Http2Sampler();
        sampler.setName(name);
    }

    /** Points the sampler at one of the server's listeners; the method is set first, as JMeter's GUI does. */
    Http2Sampler target(Listener listener, String path, ProtocolMode mode) {
        sampler.setMethod("GET");
        sampler.setProtocol(listener.secure() ? "https" : "http");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(server.port(listener));
        sampler.setPath(path);
        sampler.setHttpVersion(mode);
        return sampler;
    }

    /** Gives this thread fresh JMeter variables, where the sampler puts what a JTL saves through sample_variables. */
    JMeterVariables freshVariables() {
        JMeterVariables variables = new JMeterVariables();
        JMeterContextService.getContext().setVariables(variables);
        return variables;
    }

    /** Thread end then test end, as JMeter calls them. */
    @Override
    public void close() {
        sampler.threadFinished();
        sampler.testEnded();
        server.close();
    }
}
