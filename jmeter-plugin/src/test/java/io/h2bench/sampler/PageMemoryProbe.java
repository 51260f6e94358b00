package io.h2bench.sampler;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * Run in a small heap of its own by {@link PageMemoryTest}: one page of large resources loaded by
 * HttpClient4 (over h1-tls, six parallel downloads, as resource-sweep.jmx sets it) and by h2bench
 * over h1-tls and h2. Prints {@code SAMPLER ok=BOOL bytes=N} per load; an OutOfMemoryError ends the
 * JVM with a non-zero status.
 */
final class PageMemoryProbe {

    private PageMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String path = args[0];
        InProcessJMeter.init();
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral())) {
            HTTPSamplerProxy httpClient4 = new HTTPSamplerProxy("HttpClient4");
            print("hc4", load(httpClient4, server, Listener.H1_TLS, path));
            httpClient4.threadFinished();
            Http2Sampler h2bench = new Http2Sampler();
            for (ProtocolMode mode : new ProtocolMode[] {ProtocolMode.HTTP_1_1, ProtocolMode.HTTP_2}) {
                h2bench.setHttpVersion(mode);
                print("h2bench-" + mode, load(h2bench, server, mode == ProtocolMode.HTTP_2 ? Listener.H2 : Listener.H1_TLS, path));
            }
            h2bench.threadFinished();
            h2bench.testEnded();
        }
        System.exit(0);
    }

    private static SampleResult load(HTTPSamplerBase sampler, H2BenchServer server, Listener listener, String path) {
        sampler.setName("page");
        sampler.setMethod("GET");
        sampler.setProtocol("https");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(server.port(listener));
        sampler.setPath(path);
        sampler.setUseKeepAlive(true);
        sampler.setImageParser(true);
        sampler.setConcurrentDwn(true);
        sampler.setConcurrentPool("6");
        return sampler.sample();
    }

    private static void print(String name, SampleResult page) {
        System.out.println(name + " ok=" + page.isSuccessful() + " bytes=" + page.getBodySizeAsLong() + " " + page.getResponseMessage());
    }
}
