package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issues 21, 22 and 38, robustness: a request whose FIN comes alone after the client has its whole
 * response. Jetty 12.1.5's listener on quiche 0.24.5 (until 2026-11-28) then made a stream of it,
 * failed to read it, reset and dropped it, again and again: thousands of streams a second, on the
 * event loop that serves every QUIC connection of the listener. The handler must see each request
 * once, other connections must be served, and the listener must go idle.
 *
 * <p>The h3 listener here is the server's own ({@link Connectors#http3}) in front of a handler that
 * answers first and reads the request's rest afterwards, so that the FIN reliably comes while the
 * stream is still open; the objects the server serves finish at once, which leaves a window of a
 * millisecond or so that a busy machine's scheduling opens only now and then.
 */
class Http3LateFinTest {

    /** Under the 0.26 to 0.51 core the loop burnt in this test, far over an idle server on a busy machine. */
    private static final double IDLE_CORES = 0.25;
    private static final long TIMEOUT_SECONDS = 10;

    private final AtomicInteger requestStreamsOpened = new AtomicInteger();
    private H3ListenerAlone h3;

    @BeforeEach
    void start() throws Exception {
        h3 = H3ListenerAlone.start(new AnswerThenReadHandler(requestStreamsOpened));
    }

    @AfterEach
    void stop() throws Exception {
        h3.close();
    }

    @Test
    void shouldServeOtherConnectionsAndStayIdleWhenARequestsFinFollowsItsResponse() throws Exception {
        URI uri = h3.uri("/late-fin");
        RawH3Client.Exchange late = h3.connect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).requestWithLateFin(RawH3Client.get(uri));
        assertThat(late.response().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("status before the late FIN").isEqualTo(200);
        late.finSent().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        // One reader serves every QUIC connection of the listener: a new one is served only while it is free.
        RawH3Client.Exchange other = h3.connect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).request(RawH3Client.get(uri));
        assertThat(other.response().completeOnTimeout(-1, TIMEOUT_SECONDS, TimeUnit.SECONDS).get())
                .as("status on another connection after the late FIN (-1: none in %d s)", TIMEOUT_SECONDS).isEqualTo(200);

        double cores = coresUsedOverOneSecond();
        assertThat(requestStreamsOpened).as("requests the handler saw for two requests, after a second more")
                .hasValue(2);
        assertThat(cores).as("cores this JVM used in that second").isLessThan(IDLE_CORES);
    }

    /** CPU time of every thread but this one over about a second of wall time, in cores. */
    private static double coresUsedOverOneSecond() throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long before = cpuNanosOfOtherThreads(threads);
        long start = System.nanoTime();
        Thread.sleep(1000); // a measuring window, not a wait for an event
        long wall = System.nanoTime() - start;
        return (double) (cpuNanosOfOtherThreads(threads) - before) / wall;
    }

    private static long cpuNanosOfOtherThreads(ThreadMXBean threads) {
        long self = Thread.currentThread().getId();
        long total = 0;
        for (long id : threads.getAllThreadIds()) {
            total += id == self ? 0 : Math.max(0, threads.getThreadCpuTime(id));
        }
        return total;
    }

    /** Sends its whole response, then reads the request to its end before it finishes. */
    private static final class AnswerThenReadHandler extends Handler.Abstract {

        private static final byte[] BODY = "answered before the request ended\n".getBytes(StandardCharsets.US_ASCII);
        private final AtomicInteger handled;

        AnswerThenReadHandler(AtomicInteger handled) {
            this.handled = handled;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            handled.incrementAndGet();
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, BODY.length);
            response.write(true, BufferUtil.toBuffer(BODY), Callback.from(() -> Content.Source.consumeAll(request, callback), callback::failed));
            return true;
        }
    }
}
