package io.h2bench.server.netem;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One direction of a bandwidth-limited link, shared by every connection of a proxy: segments are
 * serialised one after another at the link's bit rate, taking turns between connections (round
 * robin, as a fair-queueing qdisc would), and leave it at exactly computed times.
 *
 * <p>Departure times are computed, not observed: the link books up to {@link #QUANTUM_NANOS} of
 * transmission ahead, then sleeps until that booking ends. A late timer therefore delays nothing.
 */
final class Link {

    /** How far ahead the link commits segments: bounds both timer load and unfairness. */
    static final long QUANTUM_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final EventLoop loop;
    private final long bitsPerSecond;
    private final ArrayDeque<Pipe> turns = new ArrayDeque<>();
    private long freeAt = System.nanoTime();
    private boolean serviceScheduled;

    Link(EventLoop loop, long bitsPerSecond) {
        if (bitsPerSecond <= 0) {
            throw new IllegalArgumentException("a link needs a positive bit rate");
        }
        this.loop = loop;
        this.bitsPerSecond = bitsPerSecond;
    }

    /** {@code pipe} has segments waiting; it joins the turns if it was not already in them. */
    void offer(Pipe pipe, long now) {
        if (!pipe.onLink) {
            pipe.onLink = true;
            turns.add(pipe);
        }
        if (serviceScheduled) {
            return;
        }
        if (freeAt - now > 0) {
            scheduleService();
        } else {
            serve(now);
        }
    }

    long serialisationNanos(int bytes) {
        return bytes * 8L * 1_000_000_000L / bitsPerSecond;
    }

    private void serve(long start) {
        long t = start;
        long horizon = start + QUANTUM_NANOS;
        while (!turns.isEmpty() && t - horizon < 0) {
            Pipe pipe = turns.poll();
            Segment segment = pipe.nextWaiting();
            if (segment == null) {
                pipe.onLink = false;
                continue;
            }
            t += serialisationNanos(segment.length());
            pipe.depart(segment, t);
            if (pipe.hasWaiting()) {
                turns.add(pipe);
            } else {
                pipe.onLink = false;
            }
        }
        freeAt = t;
        if (!turns.isEmpty()) {
            scheduleService();
        }
    }

    private void scheduleService() {
        serviceScheduled = true;
        long at = freeAt;
        loop.schedule(at, () -> {
            serviceScheduled = false;
            serve(at);
        });
    }
}
