package io.h2bench.client.wire;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.frames.GoAwayFrame;

/**
 * One connection as seen on its socket: when it was opened, when it became usable, and every byte
 * read or written. A TCP connection's events come from {@link WireRegistry} and
 * {@link CountingEndPoint}; a QUIC connection ({@link #overDatagrams}) reports the same events from
 * its UDP socket: its first datagram sent is its connect's start, its handshake (TLS inside it) the
 * end, and its datagrams' payloads are the bytes. The exchanges' times and byte counts are taken from
 * here, whatever the protocol. Bytes are attributed to the exchanges in flight on it by this rule:
 * <ol>
 *   <li>Read bytes: each exchange first gets the response bytes delivered to it (body bytes plus
 *       its header block: as text on HTTP/1.1, an HPACK- or QPACK-sized estimate on HTTP/2 and 3).
 *       The rest of what was read (TLS records, frame headers, SETTINGS, PING, PUSH_PROMISE,
 *       WINDOW_UPDATE; QUIC's packet headers, ACKs, control and QPACK streams) is
 *       overhead, settled when the last exchange in flight ends: it takes all of it. That makes the
 *       usual one-request-at-a-time sample exact; among concurrent exchanges (a page's resources,
 *       pushes) the one that ends last carries the frame and TLS overhead of them all, since
 *       until then part of what was read may be content Jetty has yet to deliver to another.</li>
 *   <li>Written bytes are shared equally among the exchanges still sending their request, or among
 *       all in flight when none is (WINDOW_UPDATE for their data); one in flight gets them all.</li>
 *   <li>Bytes moved while none is in flight (TLS handshake, HTTP/2 preface and SETTINGS before the
 *       first request, frames between requests) go to the next exchange that begins on the
 *       connection; bytes after the last one (GOAWAY, close_notify) are not attributed.</li>
 * </ol>
 * The exchanges of a connection thus add up to its wire total, up to its closing bytes, and never
 * to more. Overhead is settled at exchange ends, not per socket
 * read, because Jetty may deliver a read's content later (TLS records, HTTP/2 flow control).
 * An exchange is in flight from the moment Jetty assigns it the connection until its response
 * completes; a push from its PUSH_PROMISE until its response completes.
 */
public final class WireConnection {

    private final long id;
    private long connectBeginNanos;
    /** When TCP connected; a QUIC connection has no connect before its handshake: its first datagram's time. */
    private long tcpConnectedNanos;
    private final List<WireShare> inFlight = new ArrayList<>();
    private final List<WireShare> sending = new ArrayList<>();
    /** Read bytes not yet explained by delivered response bytes nor settled; never negative. */
    private long unexplainedIn;
    private long carriedIn;
    private long carriedOut;
    private long totalIn;
    private long totalOut;
    private boolean claimed;
    /** The exchange that claimed the connection, until it ends (its TLS handshake may still give it to another). */
    private WireShare claimer;
    private boolean secure;
    private long tlsStartNanos;
    private long handshakeDoneNanos;
    /** Handshakes with a proxy still to finish before the origin's (originTlsInside). */
    private int proxyHandshakes;
    private long lastReadNanos;
    private String alpn;
    private String goAway;

    WireConnection(long id, long connectBeginNanos, long tcpConnectedNanos) {
        this.id = id;
        this.connectBeginNanos = connectBeginNanos;
        this.tcpConnectedNanos = tcpConnectedNanos;
    }

    /**
     * A QUIC connection's wire, on a UDP socket of its own, numbered {@code id}: no TCP connect before
     * its handshake, which is TLS's, so all of its connect time is the TLS handshake's (sampler.md).
     * It reports {@link #datagramSent}, {@link #datagramReceived} and {@link #handshakeDone}.
     */
    public static WireConnection overDatagrams(long id) {
        WireConnection wire = new WireConnection(id, 0, 0);
        wire.secure = true;
        return wire;
    }

    public long id() {
        return id;
    }

    /** A datagram of {@code bytes} payload left: the first one (the client's Initial) starts the connect. */
    public synchronized void datagramSent(long bytes) {
        if (connectBeginNanos == 0) {
            long now = System.nanoTime();
            connectBeginNanos = now;
            tcpConnectedNanos = now;
            tlsStartNanos = now;
        }
        bytesWritten(bytes);
    }

    /** A datagram of {@code bytes} payload came in. */
    public void datagramReceived(long bytes) {
        bytesRead(bytes);
    }

    /** The QUIC handshake completed, {@code negotiatedAlpn} agreed: the connection is usable. */
    public void handshakeDone(String negotiatedAlpn) {
        tlsHandshakeDone(System.nanoTime(), negotiatedAlpn);
    }

    /** Jetty opened the TLS connection on the socket: right after the TCP connect, or after a proxy's CONNECT. */
    synchronized void tlsStarted(long nanos) {
        secure = true;
        tlsStartNanos = nanos;
    }

    /**
     * The socket's TLS handshake is a proxy's, and the origin's follows inside it, after the proxy's
     * {@code CONNECT}: the connection is usable, and its TLS time and ALPN are taken, at the second.
     */
    public synchronized void originTlsInside() {
        proxyHandshakes = 1;
    }

    synchronized void tlsHandshakeDone(long nanos, String negotiatedAlpn) {
        if (proxyHandshakes > 0) {
            proxyHandshakes--;
            return;
        }
        handshakeDoneNanos = nanos;
        alpn = negotiatedAlpn == null || negotiatedAlpn.isEmpty() ? null : negotiatedAlpn;
    }

    /** The server sent {@code frame}: its error code and reason explain the close that follows. */
    public void goAwayReceived(GoAwayFrame frame) {
        ErrorCode code = ErrorCode.from(frame.getError());
        String reason = frame.tryConvertPayload();
        String description = (code == null ? "error " + frame.getError() : code.name())
                + (reason == null || reason.isEmpty() ? "" : ", \"" + reason + "\"");
        synchronized (this) {
            goAway = description;
        }
    }

    /** The error code and reason of a GOAWAY the server sent on this connection, or null. */
    public synchronized String goAway() {
        return goAway;
    }

    public synchronized String alpn() {
        return alpn;
    }

    /** Usable for HTTP: TCP connected and, on TLS, the handshake done. */
    public synchronized boolean ready() {
        return !secure || handshakeDoneNanos != 0;
    }

    /**
     * While TCP is connected and the TLS handshake is under way: when the server was last heard
     * from (or the TCP connect, before its first byte); 0 once usable. JMeter's HttpClient4 bounds
     * each handshake read by the connect timeout, not the handshake as a whole.
     */
    public synchronized long handshakeHeardNanos() {
        return ready() ? 0 : Math.max(tcpConnectedNanos, lastReadNanos);
    }

    /** TCP connect plus TLS handshake from {@code sinceNanos} on; up to {@code nowNanos} if the handshake has not finished. */
    public synchronized long connectNanos(long sinceNanos, long nowNanos) {
        return Math.max(0, connectEnd(nowNanos) - Math.max(connectBeginNanos, sinceNanos));
    }

    /**
     * The TLS handshake's part of {@link #connectNanos}: from the opening of the TLS connection (or
     * {@code sinceNanos}, if later) to the handshake's end, as DevTools' "SSL" inside "Initial
     * connection"; 0 in clear text. A proxy's CONNECT before it stays outside, as in DevTools.
     */
    public synchronized long tlsNanos(long sinceNanos, long nowNanos) {
        return secure ? Math.max(0, connectEnd(nowNanos) - Math.max(tlsStartNanos, sinceNanos)) : 0;
    }

    private long connectEnd(long nowNanos) {
        return !secure ? tcpConnectedNanos : handshakeDoneNanos != 0 ? handshakeDoneNanos : nowNanos;
    }

    /**
     * Puts an exchange in flight. Returns true when it is the first exchange on this connection and
     * may claim it: the connection was opened for it, so its connect time and setup bytes are its own.
     */
    public synchronized boolean begin(WireShare exchange, boolean mayClaim, boolean willSend) {
        if (inFlight.isEmpty()) {
            carryOverhead();
        }
        boolean claim = mayClaim && !claimed;
        claimed = true;
        if (claim) {
            claimer = exchange;
        }
        inFlight.add(exchange);
        if (willSend) {
            sending.add(exchange);
        }
        exchange.addWireBytes(carriedIn, carriedOut);
        carriedIn = 0;
        carriedOut = 0;
        return claim;
    }

    public synchronized void requestSent(WireShare exchange) {
        sending.remove(exchange);
    }

    /**
     * Response bytes (headers or body) Jetty delivered to the exchange: they are its own, up to
     * what was read and not yet given away. Jetty delivers content after it was read (TLS, flow
     * control), so an exchange that ended meanwhile may already hold it as its share of the
     * overhead; counting it again here would make the exchanges add up to more than the wire.
     */
    public synchronized void received(WireShare exchange, long bytes) {
        long credit = Math.min(bytes, Math.max(0, unexplainedIn));
        exchange.addWireBytes(credit, 0);
        unexplainedIn -= credit;
    }

    /** The exchange completed: it takes its share of the overhead read so far and leaves. */
    public synchronized void end(WireShare exchange) {
        // Only the last one in flight: while others are, part of what was read may be their
        // content that Jetty has not delivered yet, which is theirs and not overhead.
        if (unexplainedIn > 0 && inFlight.size() == 1 && inFlight.contains(exchange)) {
            exchange.addWireBytes(unexplainedIn, 0);
            unexplainedIn = 0;
        }
        inFlight.remove(exchange);
        sending.remove(exchange);
        if (exchange == claimer) {
            // If it gave up during the TLS handshake, the next exchange is the one the connection was opened for.
            claimed = ready();
            // Either way the connection lets go of it: a recorder holds its response body, and 400
            // connections each keeping their first one alive kept 17 MB (44 kB bodies) for the run.
            claimer = null;
        }
    }

    synchronized void bytesRead(long bytes) {
        if (!ready()) {
            lastReadNanos = System.nanoTime();
        }
        totalIn += bytes;
        unexplainedIn += bytes;
    }

    synchronized void bytesWritten(long bytes) {
        totalOut += bytes;
        List<WireShare> writers = sending.isEmpty() ? inFlight : sending;
        if (writers.isEmpty()) {
            carriedOut += bytes;
            return;
        }
        long each = bytes / writers.size();
        long remainder = bytes % writers.size();
        for (int i = 0; i < writers.size(); i++) {
            writers.get(i).addWireBytes(0, each + (i == 0 ? remainder : 0));
        }
    }

    public synchronized long totalIn() {
        return totalIn;
    }

    public synchronized long totalOut() {
        return totalOut;
    }

    /** Between exchanges: what was read meanwhile belongs to the next exchange. */
    private void carryOverhead() {
        if (unexplainedIn > 0) {
            carriedIn += unexplainedIn;
            unexplainedIn = 0;
        }
    }
}
