package io.h2bench.client.connect;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * One instance of something costly (a client with its threads) shared by every virtual user of the
 * JVM, counted: started by the first {@link #acquire()}, stopped by the last {@link #release} and
 * by {@link #stopAll()} at test end, so that no thread outlives a JMeter test.
 *
 * @param <T> what is shared
 */
public final class SharedInstance<T> {

    private final String what;
    private final Callable<T> start;
    private final Consumer<T> stop;
    private T instance;
    private int users;

    /** @param what names the thing in the message of a failed start, e.g. "the HTTP client" */
    public SharedInstance(String what, Callable<T> start, Consumer<T> stop) {
        this.what = what;
        this.start = start;
        this.stop = stop;
    }

    /** Takes a reference, starting the instance if this is the first user. */
    public synchronized T acquire() {
        if (instance == null) {
            try {
                instance = start.call();
            } catch (Exception | LinkageError failure) {
                throw new IllegalStateException("Cannot start " + what + ": " + failure, failure);
            }
        }
        users++;
        return instance;
    }

    /** Gives a reference to {@code held} back; the last one stops it. A stopped instance is ignored. */
    public synchronized void release(T held) {
        if (instance != held) {
            return;
        }
        users--;
        if (users <= 0) {
            stopAll();
        }
    }

    /** Stops the instance whatever the count. */
    public synchronized void stopAll() {
        T current = instance;
        instance = null;
        users = 0;
        if (current != null) {
            stop.accept(current);
        }
    }

    /** Whether an instance is running now. */
    public synchronized boolean running() {
        return instance != null;
    }
}
