package io.h2bench.client.direct;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of one origin that wait for one of the user's own connections, and the connects under
 * way for them: what the HTTP/1.1 pool (up to the request's connections per origin) and the HTTP/2
 * one (one connection) share. A connect is made on behalf of the first request waiting; when it
 * fails, that request fails with it and the next one still waiting tries again, so that a refused
 * or silent server fails each request once, in order, and never leaves one waiting for a connect
 * nobody makes. A request that ended meanwhile (its timeout, the stop button) is passed over.
 * Not thread-safe: the origin's lock guards it together with the origin's connections.
 */
public final class ConnectQueue<E extends DirectExchange> {

    private final ArrayDeque<E> waiting = new ArrayDeque<>();
    private int connecting;

    /**
     * Queues {@code exchange}; true when a connect is to start for it now: fewer than {@code max}
     * connections are open ({@code open}) or opening.
     */
    public boolean add(E exchange, int open, int max) {
        waiting.add(exchange);
        return startConnect(open, max);
    }

    /**
     * A connection the other protocol's engine opened joins (ALPN chose this protocol on it): it
     * counts as a connect under way until it opens ({@link #connected}).
     */
    public void adopted() {
        connecting++;
    }

    /** A connect succeeded: one fewer is under way. */
    public void connected() {
        connecting--;
    }

    /** The first exchange still waiting, taken from the queue; null if none. */
    public E poll() {
        dropFinished();
        return waiting.poll();
    }

    /** Every exchange waiting, taken from the queue. */
    public List<E> pollAll() {
        List<E> all = new ArrayList<>(waiting);
        waiting.clear();
        return all;
    }

    /**
     * The connect made for {@code exchange} failed, and the exchange, which fails with it, leaves the
     * queue. Returns the next exchange still waiting, for which a connect starts now, or null when
     * none waits or the origin is {@code closing}.
     */
    public E connectFailed(E exchange, boolean closing) {
        connecting--;
        waiting.remove(exchange);
        dropFinished();
        E next = waiting.peek();
        if (next == null || closing) {
            return null;
        }
        connecting++;
        return next;
    }

    /**
     * A connection closed, {@code open} remain: returns the first exchange still waiting, for which a
     * connect starts now if more wait than connects are under way and its limit allows one more, or
     * null (a connection ended by {@code Connection: close} is seen closed after the next request
     * already waits for the connect started for it: that one needs no second).
     */
    public E reconnect(int open, boolean closing) {
        dropFinished();
        E next = waiting.peek();
        return next != null && !closing && waiting.size() > connecting
                && startConnect(open, next.request().maxConnectionsPerOrigin()) ? next : null;
    }

    private boolean startConnect(int open, int max) {
        if (open + connecting >= max) {
            return false;
        }
        connecting++;
        return true;
    }

    private void dropFinished() {
        while (!waiting.isEmpty() && waiting.peek().finished()) {
            waiting.poll();
        }
    }
}
