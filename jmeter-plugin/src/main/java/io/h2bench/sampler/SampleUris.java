package io.h2bench.sampler;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.Objects;

/**
 * The URI of the URL a sampler sends, parsed once while the URL stays the same: JMeter builds a new
 * URL object for every sample, and parsing each again was 9 % of the sampler's own CPU on the JMeter
 * thread (JFR, 50 users fetching 100 B over h1). One per sampler, which JMeter clones per thread.
 */
final class SampleUris {

    private URL lastUrl;
    private URI lastUri;

    URI of(URL url) throws URISyntaxException {
        if (lastUrl == null || !sameText(lastUrl, url)) {
            lastUri = url.toURI();
            lastUrl = url;
        }
        return lastUri;
    }

    /** Whether both print the same text, which is what URL.toURI parses (URL.equals would resolve host names). */
    private static boolean sameText(URL a, URL b) {
        return a.getProtocol().equals(b.getProtocol()) && Objects.equals(a.getAuthority(), b.getAuthority())
                && Objects.equals(a.getFile(), b.getFile()) && Objects.equals(a.getRef(), b.getRef());
    }
}
