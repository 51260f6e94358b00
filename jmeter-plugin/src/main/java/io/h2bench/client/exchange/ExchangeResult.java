package io.h2bench.client.exchange;

import io.h2bench.client.wire.WireConnection;
import java.net.URI;
import java.util.List;
import org.eclipse.jetty.http.HttpStatus;

/**
 * What one request/response exchange (or one server push) did, measured by {@link ExchangeRecorder}
 * from the engine's events and the connection's socket, the same for every engine. Every duration is
 * a {@link System#nanoTime()} difference on one clock from {@code startNanos}, so
 * {@code latencyNanos <= elapsedNanos} always holds.
 *
 * <ul>
 *   <li>{@code startNanos}/{@code startMillis}: the request was handed to the client (for a push:
 *       the PUSH_PROMISE arrived).</li>
 *   <li>{@code queuedNanos}: start until a connection was assigned (waiting for a free connection
 *       or stream, or for a new connection to be opened). Never part of {@code connectNanos}.</li>
 *   <li>{@code connectNanos}: TCP connect plus TLS handshake (over QUIC: its handshake) of the
 *       connection opened for this exchange, from the connection's first packet (or from
 *       {@code startNanos}, if later); 0 when the exchange reused a connection or is a push.</li>
 *   <li>{@code tlsNanos}: the TLS handshake's part of {@code connectNanos} (from the TLS connection's
 *       opening, right after the TCP connect or a proxy's CONNECT, to the handshake's end, as DevTools'
 *       "SSL" inside "Initial connection"); 0 in clear text and
 *       whenever {@code connectNanos} is. Over QUIC the handshake is one, TLS inside it: there it
 *       equals {@code connectNanos}.</li>
 *   <li>{@code latencyNanos}: start until the response began (status line or HEADERS frame); 0
 *       when none came.</li>
 *   <li>{@code elapsedNanos}: start until the last byte of the body (or the failure).</li>
 *   <li>{@code sentBytes}/{@code receivedBytes}: bytes written to / read from the socket (TCP; over
 *       QUIC the UDP datagrams' payloads) that are attributed to this exchange (see
 *       {@link WireConnection} for the rule).</li>
 *   <li>{@code bodyBytes}: response payload bytes as the server sent them (no HTTP/1.1 chunk framing,
 *       no HTTP/2 frame headers, not decompressed).</li>
 * </ul>
 *
 * @param failureMessage null on success; otherwise a sentence a tester understands
 * @param retried        null when the request was sent once; otherwise why it was sent a second time
 *                       (the server said it never processed the first: RFC 9113 6.8 and 8.7)
 * @param engine         which of the client's paths sent it (e.g. {@code h1-own}), null until the
 *                       engine names it; a sample of several exchanges shows the last one's
 */
public record ExchangeResult(
        String method,
        URI uri,
        boolean pushed,
        long startMillis,
        long startNanos,
        long queuedNanos,
        long connectNanos,
        long tlsNanos,
        long latencyNanos,
        long elapsedNanos,
        int status,
        String reason,
        String httpVersion,
        List<HeaderField> responseHeaders,
        byte[] body,
        long bodyBytes,
        long sentBytes,
        long receivedBytes,
        long connectionId,
        boolean newConnection,
        String alpn,
        String failureMessage,
        Throwable failure,
        List<ExchangeResult> pushes,
        String retried,
        String engine) {

    /** An exchange sent once, its engine not named yet ({@link #sentBy}). */
    public ExchangeResult(String method, URI uri, boolean pushed, long startMillis, long startNanos, long queuedNanos,
                          long connectNanos, long tlsNanos, long latencyNanos, long elapsedNanos, int status,
                          String reason, String httpVersion, List<HeaderField> responseHeaders, byte[] body,
                          long bodyBytes, long sentBytes, long receivedBytes, long connectionId, boolean newConnection,
                          String alpn, String failureMessage, Throwable failure, List<ExchangeResult> pushes) {
        this(method, uri, pushed, startMillis, startNanos, queuedNanos, connectNanos, tlsNanos, latencyNanos, elapsedNanos,
                status, reason, httpVersion, responseHeaders, body, bodyBytes, sentBytes, receivedBytes, connectionId,
                newConnection, alpn, failureMessage, failure, pushes, null, null);
    }

    /**
     * The same exchange, its pushes too, said to be sent by {@code engineName}: the path of the client
     * that carried it, which the sample shows (sampler.md). A result already named keeps its name: a
     * path that handed the exchange to another reports the other's.
     */
    public ExchangeResult sentBy(String engineName) {
        if (engine != null) {
            return this;
        }
        List<ExchangeResult> named = pushes.isEmpty() ? pushes : pushes.stream().map(push -> push.sentBy(engineName)).toList();
        return new ExchangeResult(method, uri, pushed, startMillis, startNanos, queuedNanos, connectNanos, tlsNanos,
                latencyNanos, elapsedNanos, status, reason, httpVersion, responseHeaders, body, bodyBytes, sentBytes,
                receivedBytes, connectionId, newConnection, alpn, failureMessage, failure, named, retried, engineName);
    }

    public boolean failed() {
        return failureMessage != null;
    }

    /**
     * The response is a proxy's refusal of the CONNECT tunnel to an https origin (a 407, a 403, a 502),
     * which the sample reports as HttpClient4 does: a response on a connection opened for it on which
     * TLS never began, so the origin never answered; or a proxy's 407, which only a proxy sends
     * (RFC 9110 15.5.8), to a plain http request.
     */
    public boolean answeredByProxy() {
        boolean refusedTunnel = status != 0 && newConnection && tlsNanos == 0 && "https".equalsIgnoreCase(uri.getScheme());
        return (refusedTunnel || status == 407) && !pushed;
    }

    /** Response status line as JMeter shows it, e.g. {@code HTTP/2.0 200 OK}. */
    public String statusLine() {
        String text = reason == null || reason.isEmpty() ? defaultReason(status) : reason;
        return (httpVersion == null ? "HTTP/?" : httpVersion) + " " + status + (text.isEmpty() ? "" : " " + text);
    }

    /** The first response header called {@code name} (any case), null if none; asked several times per sample. */
    public String responseHeader(String name) {
        for (HeaderField field : responseHeaders) {
            if (field.name().equalsIgnoreCase(name)) {
                return field.value();
            }
        }
        return null;
    }

    /**
     * This exchange and the one sent because of it (a redirect, or the answer to a 401 challenge) as
     * one sample, the way HttpClient4 reports them: the final response and URI, times from this start
     * to the final end, connect times and wire bytes of both (a new connection on http to https too).
     */
    public ExchangeResult followedBy(ExchangeResult next) {
        long offset = next.startNanos - startNanos;
        return new ExchangeResult(next.method, next.uri, pushed, startMillis, startNanos, queuedNanos,
                connectNanos + next.connectNanos, tlsNanos + next.tlsNanos, offset + next.latencyNanos, offset + next.elapsedNanos,
                next.status, next.reason, next.httpVersion, next.responseHeaders, next.body, next.bodyBytes,
                sentBytes + next.sentBytes, receivedBytes + next.receivedBytes, next.connectionId,
                next.newConnection, next.alpn, next.failureMessage, next.failure, next.pushes, retried, next.engine);
    }

    /**
     * The first try, which the server never processed, and the second ({@code next}) as one sample, as
     * {@link #followedBy} joins them: times from the first start, both tries' bytes; the message says why.
     * A second try that failed too says so in its failure message.
     */
    public ExchangeResult retriedAs(ExchangeResult next, String why) {
        ExchangeResult both = followedBy(next);
        String failed = both.failureMessage == null ? null : both.failureMessage + " (the second try: " + why + ")";
        return new ExchangeResult(both.method, both.uri, both.pushed, both.startMillis, both.startNanos, both.queuedNanos,
                both.connectNanos, both.tlsNanos, both.latencyNanos, both.elapsedNanos, both.status, both.reason, both.httpVersion,
                both.responseHeaders, both.body, both.bodyBytes, both.sentBytes, both.receivedBytes, both.connectionId,
                both.newConnection, both.alpn, failed, both.failure, both.pushes, why, both.engine);
    }

    /** The same exchange reported as a failure (e.g. one redirect too many). */
    public ExchangeResult failedWith(String message, Throwable cause) {
        return new ExchangeResult(method, uri, pushed, startMillis, startNanos, queuedNanos, connectNanos,
                tlsNanos, latencyNanos, elapsedNanos, status, reason, httpVersion, responseHeaders, body, bodyBytes,
                sentBytes, receivedBytes, connectionId, newConnection, alpn, message, cause, pushes, retried, engine);
    }

    /** HTTP/2 carries no reason phrase; show the usual one so the header line reads like HTTP/1.1. */
    private static String defaultReason(int status) {
        HttpStatus.Code code = HttpStatus.getCode(status);
        return code == null ? "" : code.getMessage();
    }
}
