package io.h2bench.client.exchange;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.eclipse.jetty.io.CyclicTimeouts;

/**
 * The response timeout as JMeter means it (no byte for that long), for every engine's exchanges
 * (Jetty 12.1.14's own request idle timeout was seen not to fire on an HTTP/2 stream once its
 * response headers had arrived: a HEAD over h2c waited forever). Silence is measured from the last response
 * event; the user's {@link ResponseTimeouts} checks it when its one timer fires, never by polling.
 * <p>
 * When a connect timeout is set, the silence counts from the request written, not from the send: the
 * connect timeout owns the time to connect and finish TLS. Otherwise a slow TLS handshake of a new
 * connection failed as "No response ... (response timeout)" with nothing sent (issue 14, seen in a real
 * JMeter under load). Without a connect timeout it counts from the send, as JMeter's socket timeout
 * bounds a silent TLS peer.
 */
public final class ResponseWatchdog implements CyclicTimeouts.Expirable {

    private final ResponseTimeouts timeouts;
    private final Consumer<Throwable> abort;
    private final long timeoutNanos;
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile boolean done;
    /** False until the request is written (or the response begins), when a connect timeout owns that phase. */
    private volatile boolean connected;

    private ResponseWatchdog(ResponseTimeouts timeouts, Consumer<Throwable> abort, long timeoutMillis, boolean connected) {
        this.timeouts = timeouts;
        this.abort = abort;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.connected = connected;
    }

    /**
     * Starts watching an exchange that {@code abort} ends, or returns null when no response timeout
     * is configured; the caller reports the written request as {@link #activity()}.
     */
    public static ResponseWatchdog watch(ResponseTimeouts timeouts, Consumer<Throwable> abort, long timeoutMillis, boolean connectTimed) {
        if (timeoutMillis <= 0) {
            return null;
        }
        ResponseWatchdog watchdog = new ResponseWatchdog(timeouts, abort, timeoutMillis, !connectTimed);
        timeouts.watch(watchdog);
        return watchdog;
    }

    /** A response event (or the request written): the silence starts again, at no cost to the timer. */
    void activity() {
        lastActivityNanos = System.nanoTime();
        if (!connected) {
            connected = true;
            // From here on it expires: the user's timer must know before its next wake-up.
            timeouts.schedule(this);
        }
    }

    void done() {
        done = true;
        timeouts.unwatch(this);
    }

    @Override
    public long getExpireNanoTime() {
        return done || !connected ? Long.MAX_VALUE : lastActivityNanos + timeoutNanos;
    }

    /** Called by the timer once the expiry has passed; true when this watchdog is finished with. */
    boolean expire() {
        if (done) {
            return true;
        }
        if (System.nanoTime() - lastActivityNanos < timeoutNanos) {
            return false; // a response event came in meanwhile: the new expiry is later
        }
        abort.accept(new TimeoutException("Idle timeout " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms elapsed"));
        return true;
    }
}
