package io.h2bench.sampler;

import io.h2bench.client.exchange.ExchangeResult;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleResult;

/**
 * One page load's embedded resources, as a browser fetches them: JMeter's own parser and URL
 * filters find them (through {@code HTTPSamplerBase.downloadPageResources}), every request goes out
 * at once on the user's own connections (one multiplexed HTTP/2 connection, or up to N HTTP/1.1
 * connections per origin), and a resource the server already pushed is taken from the per-page
 * push cache instead of being requested again. JMeter gets a placeholder result per resource while
 * the exchanges run; {@link #finish} waits for them and fills the placeholders in.
 */
final class PageResources {

    /** Failed resources named one by one in a failed page's message; the others are counted. */
    private static final int NAMED_FAILURES = 3;

    private final Map<String, ExchangeResult> pushCache = new LinkedHashMap<>();
    private final Set<String> usedPushes = new HashSet<>();
    private final List<Pending> pending = new ArrayList<>();

    private record Pending(HTTPSampleResult placeholder, CompletableFuture<ExchangeResult> exchange) {
    }

    PageResources(List<ExchangeResult> pushes) {
        for (ExchangeResult push : pushes) {
            pushCache.put(key(push.uri()), push);
        }
    }

    /** The response the server pushed for this URL, taken at most once, or null. */
    ExchangeResult takePush(URL url) {
        String key = key(url);
        ExchangeResult push = pushCache.get(key);
        if (push == null || !usedPushes.add(key)) {
            return null;
        }
        return push;
    }

    /** As HttpClient4: a resource the client redirected automatically carries the URL it ended at. */
    static URL finalUrl(URL requested, ExchangeResult outcome) {
        // The URI of a request not redirected is the one parsed from this URL's text (SampleUris).
        if (outcome.pushed() || outcome.uri().toString().equals(requested.toString())) {
            return requested;
        }
        try {
            return outcome.uri().toURL();
        } catch (java.net.MalformedURLException | IllegalArgumentException unusable) {
            return requested;
        }
    }

    /** A resource in flight: JMeter files the placeholder now, {@link #finish} fills it in. */
    HTTPSampleResult started(HTTPSampleResult placeholder, CompletableFuture<ExchangeResult> exchange) {
        // JMeter judges the page by its sub-results as it adds them; the real verdict comes at finish.
        placeholder.setSuccessful(true);
        pending.add(new Pending(placeholder, exchange));
        return placeholder;
    }

    /**
     * Waits for every resource (each ends within its own timeouts), fills its placeholder, and
     * returns the pushes the page never used, which are reported too. Each exchange is let go once
     * its placeholder holds the body: a page of 3,750 resources of 0.1 MB would otherwise hold every
     * body twice at the end (the exchange's and the stored one), where HttpClient4 holds it once.
     */
    List<ExchangeResult> finish(BiConsumer<HTTPSampleResult, ExchangeResult> fill) throws InterruptedException {
        for (int i = 0; i < pending.size(); i++) {
            Pending resource = pending.set(i, null);
            try {
                fill.accept(resource.placeholder(), resource.exchange().get());
            } catch (ExecutionException unexpected) {
                resource.placeholder().setSuccessful(false);
                resource.placeholder().setResponseMessage("Resource listener failed: " + unexpected.getCause());
            }
        }
        pending.clear();
        List<ExchangeResult> unused = new ArrayList<>();
        pushCache.forEach((key, push) -> {
            if (!usedPushes.contains(key)) {
                unused.add(push);
            }
        });
        return unused;
    }

    /**
     * The page (JMeter's container result) spans from its first request to its last resource or
     * push, and its sizes are the sums of its parts: recomputed now that the parts are known.
     */
    static void recomputeTotals(HTTPSampleResult page, boolean ignoreFailedResources) {
        long end = page.getEndTime();
        long bytes = 0;
        long sent = 0;
        long body = 0;
        long headers = 0;
        boolean success = true;
        for (SampleResult part : page.getSubResults()) {
            end = Math.max(end, part.getEndTime());
            bytes += part.getBytesAsLong();
            sent += part.getSentBytes();
            body += part.getBodySizeAsLong();
            headers += part.getHeadersSize();
            success &= part.isSuccessful();
        }
        page.setEndTime(end);
        page.setBytes(bytes);
        page.setSentBytes(sent);
        page.setBodySize(body);
        page.setHeadersSize((int) Math.min(Integer.MAX_VALUE, headers));
        if (!ignoreFailedResources && !success) {
            page.setSuccessful(false);
            page.setResponseMessage(failedPartsMessage(page));
        }
    }

    /**
     * JMeter's own wording for a page whose resources failed (HTTPSamplerBase.setParentSampleSuccess,
     * private there), so that the page's line in a JTL says why, not "OK". It names the first
     * {@value #NAMED_FAILURES} failed resources and counts the rest: a connection lost under a page of
     * 500 items would otherwise put 500 messages into one JTL cell.
     */
    private static String failedPartsMessage(HTTPSampleResult page) {
        StringBuilder message = new StringBuilder("Embedded resource download error:");
        int failed = 0;
        SampleResult[] parts = page.getSubResults();
        for (SampleResult part : parts) {
            if (!part.isSuccessful() && ++failed <= NAMED_FAILURES) {
                message.append(part.getUrlAsString()).append(" code:").append(part.getResponseCode())
                        .append(" message:").append(part.getResponseMessage()).append(", ");
            }
        }
        if (failed > NAMED_FAILURES) {
            message.append("and ").append(failed - NAMED_FAILURES).append(" more (").append(failed)
                    .append(" of ").append(parts.length).append(" parts failed)");
        }
        return message.toString();
    }

    private static String key(URL url) {
        try {
            return key(url.toURI());
        } catch (URISyntaxException invalid) {
            return url.toExternalForm();
        }
    }

    /** Compares the URL the parser found with the :path the server pushed, default ports made explicit. */
    private static String key(URI uri) {
        URI normal = uri.normalize();
        int port = normal.getPort() > 0 ? normal.getPort() : "https".equalsIgnoreCase(normal.getScheme()) ? 443 : 80;
        String path = normal.getRawPath() == null || normal.getRawPath().isEmpty() ? "/" : normal.getRawPath();
        String query = normal.getRawQuery() == null ? "" : "?" + normal.getRawQuery();
        return normal.getScheme().toLowerCase() + "://" + normal.getHost().toLowerCase() + ":" + port + path + query;
    }
}
