package io.h2bench.server;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Counts the requests that reach the test objects, per path and query, so a test can see which
 * requests a client really sent (a cache hit sends none, a revalidation sends one), and the names
 * of the headers they carried (what a proxy let through to the origin).
 */
final class RequestCounter extends Handler.Wrapper {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> headerNames = new ConcurrentHashMap<>();

    RequestCounter(Handler objects) {
        super(objects);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        // Counted on arrival, before any byte of the response: a client that has its response sees the count.
        String pathQuery = request.getHttpURI().getPathQuery();
        counts.computeIfAbsent(pathQuery, key -> new LongAdder()).increment();
        Set<String> names = headerNames.computeIfAbsent(pathQuery, key -> ConcurrentHashMap.newKeySet());
        for (HttpField field : request.getHeaders()) {
            names.add(field.getName().toLowerCase(Locale.ROOT));
        }
        return super.handle(request, response, callback);
    }

    /** Forgets every count: the server's warm-up requests are no client's. */
    void clear() {
        counts.clear();
        headerNames.clear();
    }

    long count(String pathAndQuery) {
        LongAdder count = counts.get(pathAndQuery);
        return count == null ? 0 : count.sum();
    }

    /** Lower-case names of the headers the requests for {@code pathAndQuery} carried, all of them together. */
    Set<String> headerNames(String pathAndQuery) {
        return Set.copyOf(headerNames.getOrDefault(pathAndQuery, Set.of()));
    }
}
