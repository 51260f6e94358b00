package io.h2bench.client.exchange;

import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.CyclicTimeouts;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The response timeouts of one virtual user's exchanges on one timer (Jetty's {@link CyclicTimeouts}):
 * a request only touches the scheduler when it expires earlier than every exchange already watched,
 * so back-to-back requests with the same timeout cost an atomic compare, not a scheduled and
 * cancelled task each (measured: the scheduler's queue lock was a visible share of a request's CPU).
 * When the timer fires it aborts the silent exchanges and re-arms for the earliest of the others.
 */
public final class ResponseTimeouts extends CyclicTimeouts<ResponseWatchdog> {

    private final Set<ResponseWatchdog> watched = ConcurrentHashMap.newKeySet();

    public ResponseTimeouts(Scheduler scheduler) {
        super(scheduler);
    }

    void watch(ResponseWatchdog watchdog) {
        watched.add(watchdog);
        schedule(watchdog);
    }

    void unwatch(ResponseWatchdog watchdog) {
        watched.remove(watchdog);
    }

    @Override
    protected Iterator<ResponseWatchdog> iterator() {
        return watched.iterator();
    }

    @Override
    protected boolean onExpired(ResponseWatchdog watchdog) {
        return watchdog.expire();
    }
}
