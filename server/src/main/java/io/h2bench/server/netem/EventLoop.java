package io.h2bench.server.netem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One thread that owns a selector and a timer queue: every channel and every pipe of a proxy is
 * touched only from here, so nothing in this package needs a lock.
 *
 * <p>The selector only sleeps in whole milliseconds (epoll), too coarse for a +-2 ms RTT. So the
 * loop selects until about 1 ms before the next deadline and then parks in short slices
 * ({@link #FINE_SLICE_NANOS}), polling the selector between slices: deadlines fire within tens of
 * microseconds and incoming bytes are never stamped more than one slice late.
 */
final class EventLoop implements AutoCloseable {

    /** Something the selector reported ready. */
    interface Handler {
        void onReady(SelectionKey key) throws IOException;

        /** The handler threw: drop its connection. */
        void onFailure(IOException e);
    }

    private static final Logger LOG = Logger.getLogger(EventLoop.class.getName());
    private static final long COARSE_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long FINE_SLICE_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private record Timer(long at, long order, Runnable task) implements Comparable<Timer> {
        @Override
        public int compareTo(Timer other) {
            int byTime = Long.compare(at - other.at, 0);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }

    private final Selector selector;
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final ConcurrentLinkedQueue<Runnable> inbox = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    private long timerOrder;

    EventLoop(String name) throws IOException {
        this.selector = Selector.open();
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Runs {@code task} at {@code atNanos} (System.nanoTime); loop thread only. */
    void schedule(long atNanos, Runnable task) {
        timers.add(new Timer(atNanos, timerOrder++, task));
    }

    /** Runs {@code task} on the loop thread soon; any thread. */
    void execute(Runnable task) {
        inbox.add(task);
        selector.wakeup();
    }

    SelectionKey register(SelectableChannel channel, int ops, Handler handler) {
        try {
            return channel.register(selector, ops, handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
        if (!inLoop()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        try {
            while (running) {
                runDueTimers();
                drainInbox();
                waitForWork();
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.SEVERE, "network emulation loop stopped", e);
        } finally {
            drainInbox();
            closeSelector();
        }
    }

    private void waitForWork() throws IOException {
        if (!inbox.isEmpty()) {
            selector.selectNow(this::dispatch);
            return;
        }
        Timer next = timers.peek();
        if (next == null) {
            selector.select(this::dispatch);
            return;
        }
        long remaining = next.at - System.nanoTime();
        if (remaining > COARSE_MARGIN_NANOS) {
            long millis = TimeUnit.NANOSECONDS.toMillis(remaining - COARSE_MARGIN_NANOS / 2);
            selector.select(this::dispatch, Math.max(1, millis));
        } else if (selector.selectNow(this::dispatch) == 0 && remaining > 0) {
            LockSupport.parkNanos(Math.min(remaining, FINE_SLICE_NANOS));
        }
    }

    private void runDueTimers() {
        long now = System.nanoTime();
        Timer next;
        while ((next = timers.peek()) != null && next.at - now <= 0) {
            timers.poll();
            runSafely(next.task);
        }
    }

    private void drainInbox() {
        Runnable task;
        while ((task = inbox.poll()) != null) {
            runSafely(task);
        }
    }

    private void dispatch(SelectionKey key) {
        Handler handler = (Handler) key.attachment();
        try {
            if (key.isValid()) {
                handler.onReady(key);
            }
        } catch (IOException e) {
            handler.onFailure(e);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "network emulation handler failed", e);
            handler.onFailure(new IOException(e));
        }
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "network emulation task failed", e);
        }
    }

    private void closeSelector() {
        try {
            selector.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing selector", e);
        }
    }
}
