package io.h2bench.client;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * "Redirect Automatically" as JMeter's HttpClient4 sampler does it (HttpClient's {@code RedirectExec}
 * with {@code LaxRedirectStrategy}, {@code httpsampler.max_redirects} hops), once for every engine:
 * each hop is a new request sent through the same dispatch as the first, so it goes on the protocol's
 * own engine and its connection, a new one on http to https, is measured. GET, HEAD, POST and DELETE
 * are redirected by 301, 302, 307 and 308, any method by 303; 307 and 308 keep the method and body,
 * the others turn the request into a GET without body or Content-Type (HEAD stays HEAD); the other
 * headers go along (as HttpClient4 copies the first request's, its Cookie header included, to every hop,
 * another origin's too: JMeter's cookies are a header of that request); a relative Location is resolved
 * against the hop's URI. The hops make one result
 * ({@link ExchangeResult#followedBy}): the final response and URI, times from the first request's
 * start to the last response's end, the connect times and wire bytes of every hop.
 */
public final class Redirects {

    private static final List<String> REDIRECTED_METHODS = List.of("GET", "HEAD", "POST", "DELETE");

    private Redirects() {
    }

    /** HttpClient's name for the failure, so that a sample's response code reads as HttpClient4's cause. */
    public static final class RedirectException extends IOException {
        private static final long serialVersionUID = 1L;

        RedirectException(String message) {
            super(message);
        }
    }

    /**
     * Sends {@code first} with {@code send}, then each hop its response redirects to, without waiting
     * (a hop is sent from the thread that completed the one before). {@code eachHop}: what the caller
     * changes in a hop before it goes (the sampler: the Authorization Manager's credentials for the
     * hop's URL, which HttpClient4 adds per hop), {@code UnaryOperator.identity()} for nothing.
     */
    public static CompletableFuture<ExchangeResult> follow(ExchangeRequest first, UnaryOperator<ExchangeRequest> eachHop,
                                                           Function<ExchangeRequest, CompletableFuture<ExchangeResult>> send) {
        return send.apply(first).thenCompose(result -> next(first, result, 0, eachHop, send));
    }

    private static CompletableFuture<ExchangeResult> next(ExchangeRequest request, ExchangeResult result, int hops,
                                                          UnaryOperator<ExchangeRequest> eachHop,
                                                          Function<ExchangeRequest, CompletableFuture<ExchangeResult>> send) {
        if (!isFollowed(request, result)) {
            return CompletableFuture.completedFuture(result);
        }
        if (hops >= request.maxRedirects()) {
            return CompletableFuture.completedFuture(tooMany(result, request.maxRedirects()));
        }
        ExchangeRequest hop = eachHop.apply(nextHop(request, result));
        return send.apply(hop).thenCompose(answer -> next(hop, result.followedBy(answer), hops + 1, eachHop, send));
    }

    /** Whether HttpClient4 would send another request for this response to {@code request}. */
    public static boolean isFollowed(ExchangeRequest request, ExchangeResult result) {
        if (result.failed() || result.responseHeader("Location") == null) {
            return false;
        }
        return switch (result.status()) {
            case 303 -> true;
            case 301, 302, 307, 308 -> REDIRECTED_METHODS.contains(request.method().toUpperCase(Locale.ROOT));
            default -> false;
        };
    }

    /** The request HttpClient4 sends next, to the response's Location; it follows no redirect itself. */
    public static ExchangeRequest nextHop(ExchangeRequest request, ExchangeResult result) {
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

    /** The last hop's result as HttpClient4's failure once {@code max} hops were followed. */
    public static ExchangeResult tooMany(ExchangeResult result, int max) {
        String message = "Maximum redirects (" + max + ") exceeded";
        return result.failedWith(message, new RedirectException(message));
    }
}
