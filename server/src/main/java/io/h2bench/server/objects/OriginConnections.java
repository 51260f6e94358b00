package io.h2bench.server.objects;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which TCP connections carried requests for each origin (host name and port), told apart by the
 * client's address and port: what a browser or the sampler really opened per origin, counted at
 * the server instead of on the wire.
 */
final class OriginConnections {

    private final Map<String, Set<String>> byOrigin = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();

    void record(String origin, String clientAddress, int clientPort) {
        byOrigin.computeIfAbsent(origin, o -> ConcurrentHashMap.newKeySet()).add(clientAddress + ":" + clientPort);
        requests.computeIfAbsent(origin, o -> new LongAdder()).increment();
    }

    /**
     * One line per origin, sorted: the origin, its count of connections, their client ends and the
     * requests they carried ({@code domain1.h2bench.test:8002 1 127.0.0.1:53412 3}), so that
     * connections shared by origins (HTTP/2 connection coalescing) show as the same client end
     * under several origins.
     */
    String report() {
        StringBuilder lines = new StringBuilder();
        new TreeMap<>(byOrigin).forEach((origin, clients) -> lines.append(origin).append(' ').append(clients.size())
                .append(' ').append(String.join(",", new TreeSet<>(clients)))
                .append(' ').append(requests.get(origin).sum()).append('\n'));
        return lines.toString();
    }

    void clear() {
        byOrigin.clear();
        requests.clear();
    }
}
