package io.h2bench.server.netem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One thread that owns a selector and a timer queue: every channel and every pipe of a proxy is
 * touched only from here, so nothing in this package needs a lock.
 *
 * <p>The selector only sleeps in whole milliseconds (epoll), too coarse for a +-2 ms RTT, and
 * polling in between would burn a core. So a second, idle thread (the waker) parks until the
 * earliest deadline with nanosecond resolution and then wakes the selector: deadlines fire within
 * about a hundred microseconds, and sockets are served the moment they are ready.
 */
final class EventLoop implements AutoCloseable {

    /** Something the selector reported ready. */
    interface Handler {
        void onReady(SelectionKey key) throws IOException;

        /** The handler threw: drop its connection. */
        void onFailure(IOException e);
    }

    private static final Logger LOG = Logger.getLogger(EventLoop.class.getName());
    private static final long NO_DEADLINE = Long.MIN_VALUE;

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
    private final Thread waker;
    /** The earliest deadline, published for the waker; NO_DEADLINE once it has woken the selector. */
    private final AtomicLong published = new AtomicLong(NO_DEADLINE);
    private volatile boolean running = true;
    private long timerOrder;

    EventLoop(String name) throws IOException {
        this.selector = Selector.open();
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.waker = new Thread(this::wakeAtDeadlines, name + "-waker");
        this.waker.setDaemon(true);
    }

    void start() {
        thread.start();
        waker.start();
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
        LockSupport.unpark(waker);
        if (!inLoop()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
                waker.join(TimeUnit.SECONDS.toMillis(1));
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
            running = false;
            LockSupport.unpark(waker);
            drainInbox();
            closeSelector();
        }
    }

    private void waitForWork() throws IOException {
        Timer next = timers.peek();
        if (!inbox.isEmpty() || (next != null && next.at - System.nanoTime() <= 0)) {
            selector.selectNow(this::dispatch);
            return;
        }
        if (next == null) {
            selector.select(this::dispatch);
            return;
        }
        if (published.getAndSet(next.at) != next.at) {
            LockSupport.unpark(waker);
        }
        // The waker ends this wait on time; the timeout is only a safety net.
        long millis = TimeUnit.NANOSECONDS.toMillis(next.at - System.nanoTime()) + 2;
        selector.select(this::dispatch, Math.max(1, millis));
    }

    /** The waker's loop: sleep precisely until the published deadline, then wake the selector. */
    private void wakeAtDeadlines() {
        while (running) {
            long deadline = published.get();
            if (deadline == NO_DEADLINE) {
                LockSupport.park(this);
                continue;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                LockSupport.parkNanos(this, remaining);
            } else if (published.compareAndSet(deadline, NO_DEADLINE)) {
                selector.wakeup();
            }
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

    /** Resets every channel left: if the loop died, clients must see their connections fail, not hang. */
    private void closeSelector() {
        try {
            for (SelectionKey key : selector.keys()) {
                if (key.channel() instanceof SocketChannel socket && socket.isOpen()) {
                    socket.setOption(StandardSocketOptions.SO_LINGER, 0);
                }
                key.channel().close();
            }
            selector.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing selector", e);
        }
    }
}
