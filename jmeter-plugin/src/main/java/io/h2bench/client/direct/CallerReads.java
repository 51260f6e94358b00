package io.h2bench.client.direct;

import io.h2bench.client.exchange.ExchangeRequest;
import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A virtual user's thread reading its own response (issue 20), as JMeter's HttpClient4 does with its
 * blocking socket: while the thread waits for the exchange it sent, a connection may leave that
 * response to it instead of to Jetty's selector. The thread then sleeps in the kernel until its socket
 * is readable, and the kernel wakes it, not a selector thread that parses and then wakes it. At 400
 * users a sample then holds the server's time and not the selector's queue (2 to 3 ms against 50 to
 * 60 ms, as HttpClient4's), with fewer context switches and system calls, and peak RSS fell by 120 to
 * 340 MB since each body is made by the thread that keeps it (benchmarks page).
 * <p>
 * A connection takes part by calling {@link #claim} as it writes a request on the waiting thread;
 * whatever is not claimed (a page's resources, a request that waits for a connection, an exchange
 * sent from another thread) keeps Jetty's selector. One per user; only the thread in {@link #await}
 * reads, another thread waiting on the same user at the same time just waits.
 */
public final class CallerReads implements AutoCloseable {

    /** A connection that left the response of a claimed exchange to the waiting thread. */
    interface Reading {
        /** Reads until the claimed exchange has ended or the thread must stop; then hands back to Jetty's selector if needed. */
        void readAsCaller(CallerReads reads);

        /** The waiting thread will not read after all (interrupted): Jetty's selector takes over. */
        void unclaimed();
    }

    private static final ThreadLocal<CallerReads> WAITING = new ThreadLocal<>();

    private final AtomicBoolean inUse = new AtomicBoolean();
    // Touched by the waiting thread only, but for wakeup() and close():
    private volatile Selector selector;
    private volatile Thread reader;
    private ExchangeRequest awaited;
    private Reading pending;
    private volatile boolean closed;

    /**
     * Sends with {@code send} and waits for its result, reading meanwhile what the connections leave to
     * this thread. {@code request} is what the thread waits for (its retry too, which is the same request).
     */
    public <T> T await(ExchangeRequest request, Supplier<CompletableFuture<T>> send) throws InterruptedException, ExecutionException {
        if (closed || !inUse.compareAndSet(false, true)) {
            return send.get().get();
        }
        CompletableFuture<T> future;
        WAITING.set(this);
        awaited = request;
        reader = Thread.currentThread();
        try {
            future = send.get();
            readWhileWaiting(future);
        } finally {
            WAITING.remove();
            awaited = null;
            reader = null;
            Reading left = pending;
            pending = null;
            inUse.set(false);
            if (left != null) {
                left.unclaimed();
            }
        }
        return future.get();
    }

    private void readWhileWaiting(CompletableFuture<?> future) {
        while (!future.isDone() && !Thread.currentThread().isInterrupted()) {
            Reading next = pending;
            if (next == null) {
                return; // nothing claimed: the response comes through Jetty's selector
            }
            pending = null;
            next.readAsCaller(this);
        }
    }

    /**
     * Called by a connection about to write the exchange for {@code request} on the current thread:
     * this user's reads when the thread waits for that request and will read the response itself, else null.
     */
    static CallerReads claim(ExchangeRequest request, Reading connection) {
        CallerReads reads = WAITING.get();
        if (reads == null || reads.awaited != request || reads.pending != null || reads.closed) {
            return null;
        }
        reads.pending = connection;
        return reads;
    }

    /**
     * Sleeps until {@code channel} is readable or {@link #wakeup()}; false when the thread must stop
     * reading (interrupted, or the user closed).
     */
    boolean awaitReadable(SelectableChannel channel) throws IOException {
        if (Thread.currentThread().isInterrupted() || closed) {
            return false;
        }
        try {
            Selector readiness = selector();
            SelectionKey key = channel.keyFor(readiness);
            if (key == null || !key.isValid()) {
                // A key cancelled by a close stays until the next select: the channel is closed then, and fill says so.
                key = channel.register(readiness, SelectionKey.OP_READ);
            } else {
                key.interestOps(SelectionKey.OP_READ);
            }
            readiness.select();
            readiness.selectedKeys().clear();
            return !Thread.currentThread().isInterrupted();
        } catch (ClosedSelectorException closedUnderIt) {
            return false;
        } catch (CancelledKeyException channelClosed) {
            return true; // closed by another thread between the check and the call: the next fill says so
        }
    }

    /** The thread no longer waits on {@code channel}: another of this user's sockets becoming readable must not wake it. */
    void quiet(SelectableChannel channel) {
        Selector readiness = selector;
        SelectionKey key = readiness == null ? null : channel.keyFor(readiness);
        try {
            if (key != null && key.isValid()) {
                key.interestOps(0); // applied at the next select, where it costs nothing if set back first
            }
        } catch (CancelledKeyException channelClosed) {
            // closed by another thread between the check and the call: nothing to quiet
        }
    }

    /** Wakes the reading thread when another thread ended what it waits for (a timeout, the stop button, a write's end). */
    void wakeup() {
        Selector readiness = selector;
        if (readiness != null && reader != Thread.currentThread()) {
            readiness.wakeup();
        }
    }

    private synchronized Selector selector() throws IOException {
        if (closed) {
            throw new ClosedSelectorException();
        }
        if (selector == null) {
            selector = Selector.open();
        }
        return selector;
    }

    @Override
    public void close() {
        Selector readiness;
        synchronized (this) {
            closed = true;
            readiness = selector;
        }
        if (readiness != null) {
            try {
                readiness.close();
            } catch (IOException ignored) {
                // the epoll descriptor is gone either way
            }
        }
    }
}
