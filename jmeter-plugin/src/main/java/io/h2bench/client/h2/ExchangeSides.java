package io.h2bench.client.h2;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * The two sides of an HTTP/2 exchange ({@link Http2Exchange}): it succeeds
 * when both have ended, as Jetty's do: the request's write returned, the response whole. It ends
 * once, by success or by {@link #end()}; what it does then, in its own order, is the exchange's.
 */
final class ExchangeSides {

    private final AtomicBoolean requestEnded = new AtomicBoolean();
    private final AtomicBoolean responseEnded = new AtomicBoolean();
    private final AtomicBoolean done = new AtomicBoolean();
    private final LongConsumer succeeded;
    private volatile long responseEndNanos;

    /** {@code succeeded}: the exchange's success, given when its response ended (System.nanoTime). */
    ExchangeSides(LongConsumer succeeded) {
        this.succeeded = succeeded;
    }

    void requestEnded() {
        if (requestEnded.compareAndSet(false, true)) {
            succeedWhenBothEnded();
        }
    }

    /** The response ended; the exchange succeeds once its request side has ended too. */
    void responseEnded() {
        if (responseEnded.compareAndSet(false, true)) {
            responseEndNanos = System.nanoTime();
            succeedWhenBothEnded();
        }
    }

    boolean responseWhole() {
        return responseEnded.get();
    }

    /** Ended (answered, failed or aborted). */
    boolean finished() {
        return done.get();
    }

    /** Ends the exchange before both sides have (a failure): true if it was not over yet, and the caller records how it ended. */
    boolean end() {
        return done.compareAndSet(false, true);
    }

    private void succeedWhenBothEnded() {
        if (requestEnded.get() && responseEnded.get() && done.compareAndSet(false, true)) {
            succeeded.accept(responseEndNanos);
        }
    }
}
