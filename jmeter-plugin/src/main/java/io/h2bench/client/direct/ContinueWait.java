package io.h2bench.client.direct;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.HeaderField;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A request's {@code Expect: 100-continue} (RFC 9110 section 10.1.1) as JMeter's HttpClient4 sampler
 * handles it (HttpClient 4.5's {@code HttpRequestExecutor.doSendRequest}): the header block goes out
 * alone; the body follows a 100 Continue, or {@value #WAIT_MILLIS} ms of silence
 * ({@code HttpRequestExecutor.DEFAULT_WAIT_FOR_CONTINUE}); a final response that comes first is the
 * exchange's, and the body is never sent. Both own engines use it: HTTP/1.1 writes the body after
 * the header block, HTTP/2 its DATA after a HEADERS frame without END_STREAM (RFC 9113 section 8.1.1).
 */
public final class ContinueWait {

    /** HttpClient 4.5's wait for a 100 Continue before it sends the body anyway. */
    public static final long WAIT_MILLIS = 3_000;

    private final Scheduler scheduler;
    /** How the connection sends the body, once the header block is out; null before. */
    private Runnable sendBody;
    /** A 100 Continue came before the header block's write returned. */
    private boolean continued;
    /** The body went, or will never go (a final response, the exchange's end). */
    private boolean decided;
    private Scheduler.Task timer;

    private ContinueWait(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** A wait for {@code request} when it has a body and expects a 100 Continue; else null: it goes whole. */
    public static ContinueWait of(ExchangeRequest request, Scheduler scheduler) {
        if (request.body().length == 0) {
            return null; // the header is dropped then (RFC 9110 10.1.1: no Expect without content)
        }
        for (HeaderField field : request.headers()) {
            if (field.name().equalsIgnoreCase("Expect") && field.value().trim().equalsIgnoreCase("100-continue")) {
                return new ContinueWait(scheduler);
            }
        }
        return null;
    }

    /** The header block is written: {@code send} writes the body on a 100 Continue or once the wait is over. */
    public void headersWritten(Runnable send) {
        synchronized (this) {
            if (decided) {
                return;
            }
            sendBody = send;
            if (!continued) {
                timer = scheduler.schedule(this::go, WAIT_MILLIS, TimeUnit.MILLISECONDS);
                return;
            }
            decided = true;
        }
        send.run();
    }

    /** A 100 Continue came: the body goes now (HttpClient4 takes no other 1xx for it). */
    public void continued() {
        synchronized (this) {
            if (sendBody == null) {
                continued = true;
                return;
            }
        }
        go();
    }

    private void go() {
        Runnable send;
        synchronized (this) {
            if (decided) {
                return;
            }
            decided = true;
            send = sendBody;
            cancelTimer();
        }
        send.run();
    }

    /** A final response began: true when the body was not sent, and now never will be. */
    public synchronized boolean finalResponse() {
        if (decided) {
            return false;
        }
        decided = true;
        cancelTimer();
        return true;
    }

    /** The exchange ended: no body goes any more. */
    public synchronized void end() {
        decided = true;
        cancelTimer();
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }
}
