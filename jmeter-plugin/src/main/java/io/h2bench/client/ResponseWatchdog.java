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
 * <p>
 * When a connect timeout is set, the silence counts from the request written, not from the send: the
 * connect timeout owns the time to connect and finish TLS. Otherwise a slow TLS handshake of a new
 * connection failed as "No response ... (response timeout)" with nothing sent (issue 14, seen in a real
 * JMeter under load). Without a connect timeout it counts from the send, as JMeter's socket timeout
 * bounds a silent TLS peer.
 */
final class ResponseWatchdog {

    private final Scheduler scheduler;
    private final Request request;
    private final long timeoutNanos;
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile boolean done;
    /** False until the request is written (or the response begins), when a connect timeout owns that phase. */
    private volatile boolean connected;
    private volatile Scheduler.Task task;

    private ResponseWatchdog(Scheduler scheduler, Request request, long timeoutMillis) {
        this.scheduler = scheduler;
        this.request = request;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /**
     * Starts watching before {@code request} is sent, or returns null when no response timeout is
     * configured; {@code connectTimed}: a connect timeout covers the way to the written request.
     */
    static ResponseWatchdog watch(Scheduler scheduler, Request request, long timeoutMillis, boolean connectTimed) {
        if (timeoutMillis <= 0) {
            return null;
        }
        ResponseWatchdog watchdog = new ResponseWatchdog(scheduler, request, timeoutMillis);
        watchdog.connected = !connectTimed;
        request.onRequestSuccess(written -> watchdog.activity());
        watchdog.arm(watchdog.timeoutNanos);
        return watchdog;
    }

    void activity() {
        lastActivityNanos = System.nanoTime();
        connected = true;
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
        if (!connected) {
            arm(timeoutNanos);
        } else if (silent >= timeoutNanos) {
            request.abort(new TimeoutException("Idle timeout " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms elapsed"));
        } else {
            arm(timeoutNanos - silent);
        }
    }
}
