package io.h2bench.client;

import java.util.ArrayList;
import java.util.List;

/**
 * One TCP connection as seen on its socket: when it was opened, when it became usable, and every
 * byte read or written. Bytes are attributed to exchanges by this rule:
 * <ol>
 *   <li>A read or write while exactly one exchange is in flight on the connection belongs to it
 *       (the usual sampler case, exact).</li>
 *   <li>A read or write while several exchanges are in flight (concurrent HTTP/2 streams, pushes)
 *       is shared equally among them; the remainder of the division goes to the oldest.</li>
 *   <li>Bytes moved while none is in flight (TLS handshake, HTTP/2 preface and SETTINGS before the
 *       first request, WINDOW_UPDATE or PING between requests) are carried to the next exchange
 *       that begins on the connection; bytes after the last one (GOAWAY, close_notify) are not
 *       attributed.</li>
 * </ol>
 * So the exchanges on a connection add up to its wire total, up to its closing bytes.
 * An exchange is in flight from the moment Jetty assigns it the connection until its response
 * completes; a push from its PUSH_PROMISE until its response completes.
 */
final class WireConnection {

    private final long id;
    private final long connectBeginNanos;
    private final long tcpConnectedNanos;
    private final List<ExchangeRecorder> inFlight = new ArrayList<>();
    private long carriedIn;
    private long carriedOut;
    private long totalIn;
    private long totalOut;
    private boolean claimed;
    private boolean secure;
    private long handshakeDoneNanos;
    private String alpn;

    WireConnection(long id, long connectBeginNanos, long tcpConnectedNanos) {
        this.id = id;
        this.connectBeginNanos = connectBeginNanos;
        this.tcpConnectedNanos = tcpConnectedNanos;
    }

    long id() {
        return id;
    }

    synchronized void tlsStarted() {
        secure = true;
    }

    synchronized void tlsHandshakeDone(long nanos, String negotiatedAlpn) {
        handshakeDoneNanos = nanos;
        alpn = negotiatedAlpn == null || negotiatedAlpn.isEmpty() ? null : negotiatedAlpn;
    }

    synchronized String alpn() {
        return alpn;
    }

    /** Usable for HTTP: TCP connected and, on TLS, the handshake done. */
    synchronized boolean ready() {
        return !secure || handshakeDoneNanos != 0;
    }

    /** TCP connect plus TLS handshake; up to {@code nowNanos} if the handshake has not finished. */
    synchronized long connectNanos(long nowNanos) {
        long end = !secure ? tcpConnectedNanos : handshakeDoneNanos != 0 ? handshakeDoneNanos : nowNanos;
        return Math.max(0, end - connectBeginNanos);
    }

    /**
     * Puts an exchange in flight. Returns true when it is the first exchange on this connection and
     * may claim it: the connection was opened for it, so its connect time and setup bytes are its own.
     */
    synchronized boolean begin(ExchangeRecorder exchange, boolean mayClaim) {
        boolean claim = mayClaim && !claimed;
        claimed = true;
        inFlight.add(exchange);
        exchange.addWireBytes(carriedIn, carriedOut);
        carriedIn = 0;
        carriedOut = 0;
        return claim;
    }

    synchronized void end(ExchangeRecorder exchange) {
        inFlight.remove(exchange);
    }

    synchronized void bytesRead(long bytes) {
        totalIn += bytes;
        if (inFlight.isEmpty()) {
            carriedIn += bytes;
            return;
        }
        share(bytes, true);
    }

    synchronized void bytesWritten(long bytes) {
        totalOut += bytes;
        if (inFlight.isEmpty()) {
            carriedOut += bytes;
            return;
        }
        share(bytes, false);
    }

    synchronized long totalIn() {
        return totalIn;
    }

    synchronized long totalOut() {
        return totalOut;
    }

    private void share(long bytes, boolean in) {
        int count = inFlight.size();
        long each = bytes / count;
        long remainder = bytes % count;
        for (int i = 0; i < count; i++) {
            long part = each + (i == 0 ? remainder : 0);
            inFlight.get(i).addWireBytes(in ? part : 0, in ? 0 : part);
        }
    }
}
