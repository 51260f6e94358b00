package io.h2bench.sampler;

import io.airlift.compress.zstd.ZstdInputStream;
import io.h2bench.client.exchange.ExchangeResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.hc.LaxDeflateInputStream;
import org.apache.jmeter.protocol.http.sampler.hc.LaxGZIPInputStream;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.brotli.dec.BrotliInputStream;

/**
 * The response body JMeter's assertions and extractors see, made as HttpClient4 makes it: the wire
 * bytes decoded per {@code Content-Encoding} (gzip, x-gzip, deflate, br, and zstd, which browsers
 * offer since 2024 and HttpClient4 5.6.3 leaves coded; an unknown coding is left as it came), then stored by JMeter's own {@link HTTPSamplerBase#readResponse} so that
 * {@code httpsampler.max_bytes_to_store_per_request} and "Save response as MD5 hash" apply. The
 * sample's byte counts stay those of the wire.
 */
final class ResponseBodies {

    private static final boolean GZIP_RELAX = JMeterUtils.getPropDefault("httpclient4.gzip_relax_mode", false);
    /** JMeter's own limit, read once as HTTPSamplerBase reads it (0: no limit). */
    private static final long MAX_BYTES_TO_STORE = JMeterUtils.getPropDefault("httpsampler.max_bytes_to_store_per_request", 0L);
    private static final boolean DEFLATE_RELAX = JMeterUtils.getPropDefault("httpclient4.deflate_relax_mode", false);

    private ResponseBodies() {
    }

    static byte[] stored(HTTPSamplerBase sampler, ExchangeResult exchange) throws IOException {
        byte[] wire = exchange.body();
        if (storedAsIs(sampler, wire, exchange.responseHeader("Content-Encoding"))) {
            // What readResponse would return, without its copy: the array is the exchange's own and nobody else's.
            return wire;
        }
        InputStream decoded = decode(new ByteArrayInputStream(wire), exchange.responseHeader("Content-Encoding"), wire.length);
        // A scratch result: readResponse also stamps latency, which the client measured already.
        return sampler.readResponse(new SampleResult(), decoded, wire.length);
    }

    /** No coding to undo, no MD5 asked for and no store limit that cuts it: readResponse would copy the bytes unchanged. */
    private static boolean storedAsIs(HTTPSamplerBase sampler, byte[] wire, String contentEncoding) {
        boolean coded = contentEncoding != null && !contentEncoding.isBlank() && !"identity".equalsIgnoreCase(contentEncoding.trim());
        return !coded && !sampler.useMD5() && (MAX_BYTES_TO_STORE <= 0 || wire.length <= MAX_BYTES_TO_STORE);
    }

    /** Codings apply in the order listed, so they are undone from the last to the first. */
    private static InputStream decode(InputStream in, String contentEncoding, int length) throws IOException {
        if (contentEncoding == null || length == 0) {
            return in;
        }
        String[] codings = contentEncoding.split(",");
        InputStream current = in;
        for (int i = codings.length - 1; i >= 0; i--) {
            current = decoder(current, codings[i].trim().toLowerCase(Locale.ROOT));
        }
        return current;
    }

    private static InputStream decoder(InputStream in, String coding) throws IOException {
        return switch (coding) {
            case "gzip", "x-gzip" -> new LaxGZIPInputStream(in, GZIP_RELAX);
            case "deflate" -> new LaxDeflateInputStream(in, DEFLATE_RELAX);
            case "br" -> new BrotliInputStream(in);
            case "zstd" -> new ZstdInputStream(in);
            default -> in;
        };
    }
}
