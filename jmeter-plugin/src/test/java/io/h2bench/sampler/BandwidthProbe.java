package io.h2bench.sampler;

import io.h2bench.client.exchange.ProtocolMode;
import org.apache.jmeter.util.JMeterUtils;

/**
 * Run in a JVM of its own by {@link ParityBandwidthTest}: JMeter reads
 * {@code httpclient.socket.http(s).cps} once per JVM, when its socket factories are loaded, so the
 * limit must be set before any sampler runs. Prints one line per mode:
 * {@code MODE hc4=ELAPSED_MS/BYTES h2bench=ELAPSED_MS/BYTES}.
 */
final class BandwidthProbe {

    private BandwidthProbe() {
    }

    public static void main(String[] args) throws Exception {
        InProcessJMeter.init();
        JMeterUtils.setProperty("httpclient.socket.http.cps", args[0]);
        JMeterUtils.setProperty("httpclient.socket.https.cps", args[0]);
        try (SamplerPair pair = new SamplerPair()) {
            for (ProtocolMode mode : new ProtocolMode[] {ProtocolMode.HTTP_1_1, ProtocolMode.HTTP_2}) {
                SamplerPair.Results results = pair.sample(mode, "/gzip", sampler -> { });
                System.out.println(mode + " hc4=" + results.httpClient4().getTime() + "/" + results.httpClient4().getBytesAsLong()
                        + " h2bench=" + results.h2bench().getTime() + "/" + results.h2bench().getBytesAsLong());
            }
        }
        System.exit(0);
    }
}
