package io.h2bench.sampler;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import org.apache.jmeter.util.JMeterUtils;

/**
 * "Redirect Automatically" as JMeter's HttpClient4 does it (HttpClient's {@code RedirectExec} with
 * {@code LaxRedirectStrategy}), done here rather than inside Jetty so that each hop's connection —
 * a new one on http to https — is measured: GET, HEAD, POST and DELETE are redirected; 307 and 308
 * keep the method and body, other codes turn the request into a GET (HEAD stays HEAD); the headers go
 * along; at most {@code httpsampler.max_redirects} hops. The sample carries the final URI.
 */
final class AutoRedirects {

    private static final int MAX_REDIRECTS = JMeterUtils.getPropDefault("httpsampler.max_redirects", 20);
    private static final List<String> REDIRECTED_METHODS = List.of("GET", "HEAD", "POST", "DELETE");

    private AutoRedirects() {
    }

    /** HttpClient's name for the failure, so the sample's response code reads the same. */
    static final class RedirectException extends java.io.IOException {
        private static final long serialVersionUID = 1L;

        RedirectException(String message) {
            super(message);
        }
    }

    static ExchangeResult follow(Challenges.Hop send, ExchangeRequest first) throws InterruptedException {
        ExchangeRequest request = first;
        ExchangeResult result = send.send(request);
        for (int hop = 0; isFollowed(request, result); hop++) {
            if (hop >= MAX_REDIRECTS) {
                String message = "Maximum redirects (" + MAX_REDIRECTS + ") exceeded";
                return result.failedWith(message, new RedirectException(message));
            }
            request = next(request, result);
            result = result.followedBy(send.send(request));
        }
        return result;
    }

    private static boolean isFollowed(ExchangeRequest request, ExchangeResult result) {
        if (result.failed() || result.responseHeader("Location") == null) {
            return false;
        }
        return switch (result.status()) {
            case 303 -> true;
            case 301, 302, 307, 308 -> REDIRECTED_METHODS.contains(request.method().toUpperCase(Locale.ROOT));
            default -> false;
        };
    }

    private static ExchangeRequest next(ExchangeRequest request, ExchangeResult result) {
        URI target = request.uri().resolve(result.responseHeader("Location"));
        String method = request.method().toUpperCase(Locale.ROOT);
        boolean keep = method.equals("HEAD") || method.equals("GET") || result.status() == 307 || result.status() == 308;
        if (keep) {
            return request.redirected(request.method(), target, request.headers(), request.body());
        }
        List<HeaderField> headers = request.headers().stream()
                .filter(field -> !field.name().equalsIgnoreCase("Content-Type"))
                .toList();
        return request.redirected("GET", target, headers, null);
    }
}
