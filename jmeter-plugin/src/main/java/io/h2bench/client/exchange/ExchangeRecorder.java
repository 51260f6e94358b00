package io.h2bench.client.exchange;

import io.h2bench.client.wire.WireConnection;
import io.h2bench.client.wire.WireShare;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;

/**
 * The one place where an exchange's (or a pushed response's) times and byte counts are taken, for
 * every engine: the sampler's own HTTP/1.1 and HTTP/2 and HTTP/3 on Netty's QUIC report the same
 * events, each taken when it fires ({@link System#nanoTime()}, no polling):
 * <ol>
 *   <li>the recorder is made: the sample's start;</li>
 *   <li>{@link #attach}: the exchange is on a connection, whose {@link WireConnection} holds when it
 *       was opened and became usable (the connect and TLS times, if the exchange opened it) and shares
 *       its socket's bytes among the exchanges on it;</li>
 *   <li>{@link #requestWritten}, {@link #responseBegun} (the latency), {@link #responseHeaders},
 *       {@link #responseContent};</li>
 *   <li>{@link #completed}: the end of the sample, its result built.</li>
 * </ol>
 * sampler.md's "What the numbers mean" defines the phases these events bound.
 */
public final class ExchangeRecorder implements WireShare {

    /** Pushes can finish after the main response: how long to wait for them when no timeout is set. */
    private static final long DEFAULT_PUSH_WAIT_MILLIS = 30_000;

    private final ExchangeRequest request;
    private final URI uri;
    private final boolean pushed;
    private final long startMillis = System.currentTimeMillis();
    private final long startNanos = System.nanoTime();
    private final AtomicLong wireIn = new AtomicLong();
    private final AtomicLong wireOut = new AtomicLong();
    private final BodyBuffer body = new BodyBuffer();
    private final List<ExchangeRecorder> pushes = new ArrayList<>();
    private final CompletableFuture<ExchangeResult> result = new CompletableFuture<>();

    private volatile ResponseWatchdog watchdog;
    private volatile WireConnection wire;
    private volatile boolean newConnection;
    private volatile long assignedNanos;
    private volatile long responseBeginNanos;

    public ExchangeRecorder(ExchangeRequest request, URI uri, boolean pushed) {
        this.request = request;
        this.uri = uri;
        this.pushed = pushed;
    }

    public CompletableFuture<ExchangeResult> result() {
        return result;
    }

    public void watchWith(ResponseWatchdog responseWatchdog) {
        watchdog = responseWatchdog;
    }

    public void activity() {
        ResponseWatchdog current = watchdog;
        if (current != null) {
            current.activity();
        }
    }

    /** The request is fully written on its connection. */
    public void requestWritten() {
        WireConnection current = wire;
        if (current != null) {
            current.requestSent(this);
        }
    }

    /** Response body bytes received so far. */
    public long bodySize() {
        return body.size();
    }

    /** A pushed response is on its main exchange's connection from its PUSH_PROMISE on. */
    public void attach(WireConnection connection, boolean mayClaim) {
        if (connection == null || wire != null) {
            return;
        }
        assignedNanos = System.nanoTime();
        wire = connection;
        newConnection = connection.begin(this, mayClaim, !pushed);
    }

    /** The exchange was given a connection (which may still be finishing its TLS handshake). */
    public boolean isAssigned() {
        return wire != null;
    }

    /** The connection the exchange was given, or null before that. */
    public WireConnection wire() {
        return wire;
    }

    public boolean hasConnection() {
        WireConnection current = wire;
        return current != null && current.ready();
    }

    @Override
    public void addWireBytes(long in, long out) {
        wireIn.addAndGet(in);
        wireOut.addAndGet(out);
    }

    /** Registers a push promised on this exchange; it is waited for before this result completes. */
    public ExchangeRecorder newPush(URI pushedUri) {
        ExchangeRecorder push = new ExchangeRecorder(request, pushedUri, true);
        push.attach(wire, false);
        synchronized (pushes) {
            pushes.add(push);
        }
        return push;
    }

    /** The status line or the final response HEADERS began to arrive. */
    public void responseBegun() {
        responseBeginNanos = System.nanoTime();
        activity();
    }

    /** The response's header block, whole. */
    public void responseHeaders(int status, HttpVersion version, HttpFields fields) {
        activity();
        WireConnection current = wire;
        if (current != null) {
            current.received(this, headerWeight(version, fields));
        }
        if (!"HEAD".equalsIgnoreCase(request.method()) && status != 304) {
            body.expect(fields.getLongField(HttpHeader.CONTENT_LENGTH));
        }
    }

    /** HTTP/1.1 headers travel as text; HTTP/2's HPACK and HTTP/3's QPACK send mostly small table indexes. */
    private static long headerWeight(HttpVersion version, HttpFields fields) {
        boolean text = version != null && version.getVersion() < 20;
        long weight = text ? 17 : 9;
        for (HttpField field : fields) {
            weight += text ? field.getName().length() + field.getValue().length() + 4 : 3;
        }
        return weight;
    }

    /** Response body bytes, as the server sent them. */
    public void responseContent(ByteBuffer content) {
        activity();
        WireConnection current = wire;
        if (current != null) {
            current.received(this, content.remaining());
        }
        body.append(content);
    }

    /** The exchange ended: {@code head} is the response's, null if none came; {@code failure} null on success. */
    public void completed(ResponseHead head, Throwable failure) {
        completed(head, failure, System.nanoTime());
    }

    /** As {@link #completed(ResponseHead, Throwable)}, the response having ended at {@code endNanos}. */
    public void completed(ResponseHead head, Throwable failure, long endNanos) {
        try {
            complete(head, failure, endNanos);
        } catch (RuntimeException | Error bug) {
            // The engines' callers swallow exceptions (Jetty's callbacks): without this the sampler would wait forever.
            result.completeExceptionally(bug);
        }
    }

    /** The status, reason, version and fields of a response. */
    public record ResponseHead(int status, String reason, HttpVersion version, HttpFields fields) {
    }

    private void complete(ResponseHead head, Throwable failure, long endNanos) {
        ResponseWatchdog dog = watchdog;
        if (dog != null) {
            dog.done();
        }
        WireConnection current = wire;
        if (current != null) {
            current.end(this);
        }
        ExchangeResult main = build(head, failure, endNanos, List.of());
        List<CompletableFuture<ExchangeResult>> pending;
        synchronized (pushes) {
            // Most exchanges have no push: a stream pipeline for none was 4 % of h2c's response thread.
            pending = pushes.isEmpty() ? List.of() : pushes.stream().map(ExchangeRecorder::result).toList();
        }
        if (pending.isEmpty()) {
            result.complete(main);
            return;
        }
        long waitMillis = request.responseTimeout().isZero() ? DEFAULT_PUSH_WAIT_MILLIS : request.responseTimeout().toMillis();
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .orTimeout(waitMillis, TimeUnit.MILLISECONDS)
                .whenComplete((done, timeout) -> result.complete(withPushes(main, pending)));
    }

    private ExchangeResult build(ResponseHead head, Throwable failure, long endNanos, List<ExchangeResult> pushResults) {
        boolean responded = head != null && responseBeginNanos != 0;
        List<HeaderField> headers = new ArrayList<>();
        if (responded) {
            for (HttpField field : head.fields()) {
                headers.add(new HeaderField(field.getName(), field.getValue()));
            }
        }
        WireConnection current = wire;
        // A connection opened for an earlier request that gave up counts only from this one's start.
        long connect = newConnection && current != null ? current.connectNanos(startNanos, endNanos) : 0;
        long tls = newConnection && current != null ? current.tlsNanos(startNanos, endNanos) : 0;
        long latency = responseBeginNanos == 0 ? 0 : responseBeginNanos - startNanos;
        byte[] bytes = body.toByteArray();
        long payload = bytes.length;
        return new ExchangeResult(
                pushed ? "GET" : request.method(), uri, pushed, startMillis, startNanos,
                assignedNanos == 0 ? 0 : assignedNanos - startNanos,
                connect, tls, latency, endNanos - startNanos,
                responded ? head.status() : 0,
                responded ? head.reason() : null,
                responded ? versionName(head.version()) : null,
                List.copyOf(headers), bytes, payload, wireOut.get(), wireIn.get(),
                current == null ? 0 : current.id(), newConnection,
                current == null ? null : current.alpn(),
                failure == null ? null : FailureMessages.describe(failure, request, current == null ? null : current.goAway()),
                failure, pushResults);
    }

    /** Jetty's name of the version (HTTP/2.0, as samples have always shown it), but HTTP/3 as RFC 9114 writes it. */
    private static String versionName(HttpVersion version) {
        return version == HttpVersion.HTTP_3 ? "HTTP/3" : version.asString();
    }

    private static ExchangeResult withPushes(ExchangeResult main, List<CompletableFuture<ExchangeResult>> pending) {
        List<ExchangeResult> done = new ArrayList<>();
        for (CompletableFuture<ExchangeResult> push : pending) {
            ExchangeResult pushResult = push.getNow(null);
            if (pushResult != null) {
                done.add(pushResult);
            }
        }
        return new ExchangeResult(main.method(), main.uri(), main.pushed(), main.startMillis(), main.startNanos(),
                main.queuedNanos(), main.connectNanos(), main.tlsNanos(), main.latencyNanos(), main.elapsedNanos(),
                main.status(), main.reason(), main.httpVersion(), main.responseHeaders(), main.body(), main.bodyBytes(),
                main.sentBytes(), main.receivedBytes(), main.connectionId(), main.newConnection(), main.alpn(),
                main.failureMessage(), main.failure(), List.copyOf(done));
    }
}
