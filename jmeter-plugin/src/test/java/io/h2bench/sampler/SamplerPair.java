package io.h2bench.sampler;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.parity.ParityPeer;
import java.util.function.Consumer;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * JMeter's own HTTP Request (HttpClient4) beside the h2bench sampler, both configured by the same
 * code and aimed at the same {@link ParityPeer}: HttpClient4 speaks HTTP/1.1 over the mode's scheme
 * (https for HTTP_2 and HTTP_3, http for HTTP_1_1 and H2C), h2bench the mode itself (HTTP_3 on the
 * peer's UDP port, which a pair made {@code withHttp3} has).
 */
final class SamplerPair implements AutoCloseable {

    /** What one configuration gave on each sampler. */
    record Results(HTTPSampleResult httpClient4, HTTPSampleResult h2bench) {
    }

    final ParityPeer peer;
    private final HTTPSamplerProxy httpClient4;
    private final Http2Sampler h2bench;

    SamplerPair() throws Exception {
        this(false);
    }

    /** {@code http3}: the peer answers over HTTP/3 too ({@link ParityPeer#withHttp3}). */
    SamplerPair(boolean http3) throws Exception {
        // Before the first sampler: HTTPSamplerBase reads its parsers from the properties once per JVM.
        InProcessJMeter.init();
        httpClient4 = new HTTPSamplerProxy("HttpClient4");
        h2bench = new Http2Sampler();
        // HttpClient4 keeps per-user state (Digest parameters, SSL context) in the thread's variables.
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        peer = http3 ? ParityPeer.withHttp3(ParityPeer.tempDir()) : new ParityPeer(ParityPeer.tempDir());
    }

    /** Both samplers, configured by {@code setup} after the target, each sampled once. */
    Results sample(ProtocolMode mode, String path, Consumer<HTTPSamplerBase> setup) {
        boolean tls = mode == ProtocolMode.HTTP_2 || mode == ProtocolMode.HTTP_3;
        aim(httpClient4, tls, path, setup);
        aim(h2bench, tls, path, setup);
        h2bench.setHttpVersion(mode);
        if (mode == ProtocolMode.HTTP_3) {
            h2bench.setPort(peer.h3Port());
        }
        return new Results((HTTPSampleResult) httpClient4.sample(), (HTTPSampleResult) h2bench.sample());
    }

    Http2Sampler h2bench() {
        return h2bench;
    }

    private void aim(HTTPSamplerBase sampler, boolean tls, String path, Consumer<HTTPSamplerBase> setup) {
        sampler.setName("parity");
        sampler.setMethod("GET");
        sampler.setProtocol(tls ? "https" : "http");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(peer.port(tls));
        sampler.setPath(path);
        sampler.setUseKeepAlive(true); // the HTTP Request editor's default
        setup.accept(sampler);
    }

    @Override
    public void close() {
        httpClient4.threadFinished();
        h2bench.threadFinished();
        h2bench.testEnded();
        peer.close();
    }
}
