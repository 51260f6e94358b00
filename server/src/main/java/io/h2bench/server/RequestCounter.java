package io.h2bench.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Counts the requests that reach the test objects, per path and query, so a test can see which
 * requests a client really sent (a cache hit sends none, a revalidation sends one).
 */
final class RequestCounter extends Handler.Wrapper {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    RequestCounter(Handler objects) {
        super(objects);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        // Counted on arrival, before any byte of the response: a client that has its response sees the count.
        counts.computeIfAbsent(request.getHttpURI().getPathQuery(), key -> new LongAdder()).increment();
        return super.handle(request, response, callback);
    }

    /** Forgets every count: the server's warm-up requests are no client's. */
    void clear() {
        counts.clear();
    }

    long count(String pathAndQuery) {
        LongAdder count = counts.get(pathAndQuery);
        return count == null ? 0 : count.sum();
    }
}
