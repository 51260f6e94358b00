package io.h2bench.client.h2;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The streams of one {@link Http2FrameConnection}: which are open, ours and the server's pushes, and
 * which requests wait for a slot under the server's limit. Not thread-safe: used under the
 * connection's lock.
 */
final class Http2Streams {

    private final Map<Integer, Http2Exchange> open = new HashMap<>();
    private final ArrayDeque<Http2Exchange> waiting = new ArrayDeque<>();
    private int local;
    /** One stream until the server's SETTINGS: its limit is unknown before (RFC 9113 section 3.4 allows sending). */
    private int maxLocal = 1;
    private boolean serverSettings;
    private int remote;
    private boolean retired;

    /** No new stream goes here (GOAWAY, refused stream, closed). */
    boolean retired() {
        return retired;
    }

    /** An exchange open or waiting: someone must read. */
    boolean busy() {
        return !open.isEmpty() || !waiting.isEmpty();
    }

    boolean noneOpen() {
        return open.isEmpty();
    }

    Http2Exchange get(int streamId) {
        return open.get(streamId);
    }

    /** Whether {@code exchange} holds an open stream here. */
    boolean holds(Http2Exchange exchange) {
        return exchange.streamId != 0 && open.get(exchange.streamId) == exchange;
    }

    void enqueue(Http2Exchange exchange) {
        waiting.add(exchange);
    }

    /** Opens streams for waiting requests while the server's limit allows; {@code opening} queues each one's HEADERS and numbers it. */
    void openWaiting(Consumer<Http2Exchange> opening) {
        while (local < maxLocal && !retired) {
            Http2Exchange next = waiting.poll();
            if (next == null) {
                return;
            }
            if (next.finished()) {
                continue;
            }
            local++;
            opening.accept(next);
            open.put(next.streamId, next);
        }
    }

    /** The h2c Upgrade's request, stream 1, which the server's limit counts (RFC 7540 section 3.2); null: no Upgrade made the connection. */
    void upgraded(Http2Exchange exchange) {
        if (exchange != null) {
            local++;
            open.put(exchange.streamId, exchange);
        }
    }

    /** {@code exchange} ended: true when it held a stream, whose slot is free now; else it no longer waits. */
    boolean ended(Http2Exchange exchange) {
        if (!holds(exchange)) {
            waiting.remove(exchange);
            return false;
        }
        open.remove(exchange.streamId);
        if (exchange.pushed()) {
            remote--;
        } else {
            local--;
        }
        return true;
    }

    /** The server's SETTINGS: its limit on our streams, or none when its first SETTINGS name none. */
    void serverLimit(Integer maxConcurrentStreams) {
        if (maxConcurrentStreams != null) {
            maxLocal = maxConcurrentStreams;
        } else if (!serverSettings) {
            maxLocal = Integer.MAX_VALUE; // no limit announced: Jetty's client sets none either
        }
        serverSettings = true;
    }

    int pushesOpen() {
        return remote;
    }

    /** A stream the server promised, with {@code push} accepted for it. */
    void promised(int streamId, Http2Exchange push) {
        push.streamId = streamId;
        open.put(streamId, push);
        remote++;
    }

    /** Our streams the server never processed: above a GOAWAY's last stream id (RFC 9113 6.8). */
    List<Http2Exchange> unprocessedAbove(int lastStreamId) {
        List<Http2Exchange> unprocessed = new ArrayList<>();
        for (Http2Exchange exchange : open.values()) {
            if (!exchange.pushed() && exchange.streamId > lastStreamId) {
                unprocessed.add(exchange);
            }
        }
        return unprocessed;
    }

    Iterable<Http2Exchange> openExchanges() {
        return open.values();
    }

    List<Http2Exchange> allOpen() {
        return new ArrayList<>(open.values());
    }

    /** Takes no new stream; returns what waited for one, or null when already retired with nothing waiting. */
    List<Http2Exchange> retire() {
        if (retired && waiting.isEmpty()) {
            return null;
        }
        retired = true;
        List<Http2Exchange> unsent = new ArrayList<>(waiting);
        waiting.clear();
        return unsent;
    }
}
