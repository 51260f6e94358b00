package io.h2bench.sampler;

import io.h2bench.client.exchange.ProtocolMode;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.util.JMeterUtils;

/**
 * Run in a JVM of its own by {@link ParityStoredBytesTest}: JMeter reads
 * {@code httpsampler.max_bytes_to_store_per_request} once, when HTTPSamplerBase is loaded, so the
 * limit must be set before any sampler exists. Prints one line per mode: {@code MODE hc4=N h2bench=N}.
 */
final class StoredBytesProbe {

    private StoredBytesProbe() {
    }

    public static void main(String[] args) throws Exception {
        InProcessJMeter.init();
        JMeterUtils.setProperty("httpsampler.max_bytes_to_store_per_request", args[0]);
        try (SamplerPair pair = new SamplerPair()) {
            for (ProtocolMode mode : new ProtocolMode[] {ProtocolMode.HTTP_1_1, ProtocolMode.HTTP_2, ProtocolMode.H2C}) {
                SamplerPair.Results results = pair.sample(mode, "/gzip", sampler -> {
                    HeaderManager headers = new HeaderManager();
                    headers.add(new Header("Accept-Encoding", "gzip"));
                    sampler.setHeaderManager(headers);
                });
                System.out.println(mode + " hc4=" + results.httpClient4().getResponseData().length
                        + " h2bench=" + results.h2bench().getResponseData().length);
            }
        }
        System.exit(0);
    }
}
