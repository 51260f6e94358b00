package io.h2bench.sampler;

import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import org.apache.http.HttpVersion;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.message.BasicHttpResponse;
import org.apache.http.message.BasicStatusLine;
import org.apache.jmeter.protocol.http.control.CacheManager;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.util.JMeterUtils;

/**
 * JMeter's Cache Manager for this sampler. Its public API speaks Apache HttpClient 4 types (which
 * JMeter ships), so requests and responses are handed over in those types: the manager itself
 * decides freshness, conditional headers (If-None-Match, If-Modified-Since) and what to store.
 */
final class CacheBridge {

    private CacheBridge() {
    }

    /** Whether a GET can be answered from the cache without touching the network. */
    static boolean fresh(CacheManager cache, URL url, String method, List<HeaderField> headers) {
        if (cache == null || !"GET".equalsIgnoreCase(method)) {
            return false;
        }
        Header[] jmeterHeaders = headers.stream().map(field -> new Header(field.name(), field.value())).toArray(Header[]::new);
        return cache.inCache(url, jmeterHeaders);
    }

    /**
     * What JMeter's own HTTP samplers return for a resource taken from the cache, by its property
     * {@code cache_manager.cached_resource_mode}: no sample at all (the default), a 200 "(ex cache)",
     * or the status set in {@code RETURN_CUSTOM_STATUS.code/.message}. Read per use, not once per
     * JVM, so every run (and test) gets the mode its properties say.
     */
    static HTTPSampleResult cachedResult(HTTPSampleResult result) {
        String mode = JMeterUtils.getPropDefault("cache_manager.cached_resource_mode", "RETURN_NO_SAMPLE");
        if ("RETURN_NO_SAMPLE".equals(mode)) {
            return null;
        }
        result.sampleStart();
        result.sampleEnd();
        if ("RETURN_CUSTOM_STATUS".equals(mode)) {
            result.setResponseCode(JMeterUtils.getProperty("RETURN_CUSTOM_STATUS.code"));
            result.setResponseMessage(JMeterUtils.getProperty("RETURN_CUSTOM_STATUS.message"));
        } else {
            result.setResponseCodeOK();
            result.setResponseMessage(JMeterUtils.getPropDefault("RETURN_200_CACHE.message", "(ex cache)"));
        }
        result.setSuccessful(true);
        return result;
    }

    /** The conditional headers the cache wants on a request for this URL. */
    static List<HeaderField> conditionalHeaders(CacheManager cache, URL url) {
        List<HeaderField> headers = new ArrayList<>();
        if (cache == null) {
            return headers;
        }
        try {
            HttpGet probe = new HttpGet(url.toURI());
            cache.setHeaders(url, probe);
            for (org.apache.http.Header header : probe.getAllHeaders()) {
                headers.add(new HeaderField(header.getName(), header.getValue()));
            }
        } catch (URISyntaxException invalid) {
            // An unusable URL fails later, when it is sent, with a clearer message.
        }
        return headers;
    }

    /** Lets the cache store what the response says about caching (ETag, Last-Modified, Expires…). */
    static void save(CacheManager cache, ExchangeResult outcome, HTTPSampleResult result) {
        if (cache == null || outcome.failed()) {
            return;
        }
        BasicHttpResponse response = new BasicHttpResponse(new BasicStatusLine(
                HttpVersion.HTTP_1_1, outcome.status(), result.getResponseMessage()));
        outcome.responseHeaders().forEach(field -> response.addHeader(field.name(), field.value()));
        cache.saveDetails(response, result);
    }
}
