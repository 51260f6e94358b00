package io.h2bench.report;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * XML JTLs under src/test/resources/waterfall, trimmed from a real run of compare-protocols.jmx in
 * the assembled JMeter 5.6.3 against the server: pages.xml (h1, h2 and h2-push page loads plus a
 * single request; saved with {@link XmlJtlReader#XML_OPTIONS}), no-headers.xml (an h2 page load saved
 * without response headers), no-subresults.xml (two samples without sub-results); tls-page.xml (an h2
 * page load on a new connection from TlsColumnsIT's run of bin/lib/waterfall-listener.jmx, saved with
 * the sampler's TLS variables in sample_variables).
 */
final class WaterfallJtl {

    private WaterfallJtl() {
    }

    static Path named(String file) {
        try {
            return Path.of(WaterfallJtl.class.getResource("/waterfall/" + file).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<PageSample> samples(String file) throws JtlFormatException, IOException {
        List<PageSample> samples = new ArrayList<>();
        new XmlJtlReader(named(file), false).read(samples::add);
        return samples;
    }

    static PageSample page(String label) throws JtlFormatException, IOException {
        return samples("pages.xml").stream().filter(sample -> sample.label().equals(label)).findFirst().orElseThrow();
    }
}
