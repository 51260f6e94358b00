package io.h2bench.client;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The response timeout as JMeter means it (no byte for that long), enforced by this client too:
 * Jetty 12.1.14's request idle timeout was seen not to fire on an HTTP/2 stream once its response
 * headers had arrived (a HEAD over h2c waited forever). One timer per exchange, re-armed from the time of the last
 * response event, never a periodic poll; cancelled when the exchange completes.
 */
final class ResponseWatchdog {

    private final Scheduler scheduler;
    private final Request request;
    private final long timeoutNanos;
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile boolean done;
    private volatile Scheduler.Task task;

    private ResponseWatchdog(Scheduler scheduler, Request request, long timeoutMillis) {
        this.scheduler = scheduler;
        this.request = request;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /** Starts watching, or returns null when no response timeout is configured. */
    static ResponseWatchdog watch(Scheduler scheduler, Request request, long timeoutMillis) {
        if (timeoutMillis <= 0) {
            return null;
        }
        ResponseWatchdog watchdog = new ResponseWatchdog(scheduler, request, timeoutMillis);
        watchdog.arm(watchdog.timeoutNanos);
        return watchdog;
    }

    void activity() {
        lastActivityNanos = System.nanoTime();
    }

    void done() {
        done = true;
        Scheduler.Task current = task;
        if (current != null) {
            current.cancel();
        }
    }

    private void arm(long delayNanos) {
        if (!done) {
            task = scheduler.schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void check() {
        if (done) {
            return;
        }
        long silent = System.nanoTime() - lastActivityNanos;
        if (silent >= timeoutNanos) {
            request.abort(new TimeoutException("Idle timeout " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms elapsed"));
        } else {
            arm(timeoutNanos - silent);
        }
    }
}
