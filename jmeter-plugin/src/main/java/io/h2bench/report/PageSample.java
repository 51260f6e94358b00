package io.h2bench.report;

import java.util.List;

/**
 * One sample as the waterfall needs it, in plain values: built from JMeter's SampleResult by the
 * listener, or from an XML JTL by the report, so both draw from the same {@link WaterfallRow}s.
 *
 * @param startMillis   epoch ms at which the sample started
 * @param samplerData   what the sampler wrote (the h2bench lines), "" when the source has none
 * @param responseHeaders the status line and headers, "" when the source has none
 * @param tlsMillis     the TLS handshake's part of connectMillis (0 when unknown: a JTL without the
 *                      h2bench variables, or a sample of another sampler)
 * @param responseCode  "200", or JMeter's "Non HTTP response code: ..." text
 * @param parts         the sub-results in order (a page load: the page itself, then its resources)
 */
public record PageSample(String label, long startMillis, long elapsedMillis, long latencyMillis, long connectMillis,
                         long tlsMillis, long sentBytes, boolean successful, String responseCode, String samplerData,
                         String responseHeaders, List<PageSample> parts) {

    public PageSample {
        samplerData = samplerData == null ? "" : samplerData;
        responseHeaders = responseHeaders == null ? "" : responseHeaders;
        responseCode = responseCode == null ? "" : responseCode;
        parts = List.copyOf(parts);
    }

    /** The same sample with another TLS handshake time (a part's, read from its parent in a JTL). */
    public PageSample withTlsMillis(long millis) {
        return new PageSample(label, startMillis, elapsedMillis, latencyMillis, connectMillis, millis, sentBytes,
                successful, responseCode, samplerData, responseHeaders, parts);
    }

    public long endMillis() {
        return startMillis + elapsedMillis;
    }
}
