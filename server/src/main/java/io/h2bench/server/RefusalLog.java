package io.h2bench.server;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.eclipse.jetty.util.thread.Scheduler;

/**
 * What a listener's {@link ConnectionCap} refused, as one line per interval: the first refusal after
 * a quiet interval at once, the rest summed up when the interval ends. A slowloris that retries
 * thousands of times a second writes two lines every ten seconds, not thousands.
 */
final class RefusalLog {

    static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final int MOST_ADDRESSES = 8;

    private final String listener;
    private final Scheduler scheduler;
    private final Consumer<String> out;
    private final Map<String, Integer> pending = new TreeMap<>();
    private boolean intervalRunning;
    private long refused;
    private long lines;

    RefusalLog(String listener, Scheduler scheduler, Consumer<String> out) {
        this.listener = listener;
        this.scheduler = scheduler;
        this.out = out;
    }

    void refused(InetAddress client, String cap) {
        String line = null;
        synchronized (this) {
            refused++;
            if (intervalRunning) {
                String key = cap + " from " + address(client);
                // Many addresses in one interval share a line: the map stays as small as the log.
                pending.merge(pending.size() < MOST_ADDRESSES || pending.containsKey(key) ? key : cap + " from other addresses",
                        1, Integer::sum);
            } else {
                intervalRunning = true;
                scheduler.schedule(this::endInterval, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
                line = listener + ": refused a connection from " + address(client) + " (" + cap + " reached); "
                        + "further refusals are summed up every " + INTERVAL.toSeconds() + " s";
                lines++;
            }
        }
        if (line != null) {
            out.accept(line);
        }
    }

    /** Connections refused since start. */
    synchronized long refused() {
        return refused;
    }

    /** Lines written since start. */
    synchronized long lines() {
        return lines;
    }

    private void endInterval() {
        String line;
        synchronized (this) {
            if (pending.isEmpty()) {
                intervalRunning = false;
                return;
            }
            int total = pending.values().stream().mapToInt(Integer::intValue).sum();
            line = listener + ": refused " + total + " more connections in " + INTERVAL.toSeconds() + " s: " + pending;
            pending.clear();
            lines++;
            scheduler.schedule(this::endInterval, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        }
        out.accept(line);
    }

    private static String address(InetAddress client) {
        return client == null ? "an address already gone" : client.getHostAddress();
    }
}
