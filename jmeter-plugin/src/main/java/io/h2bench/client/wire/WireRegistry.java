package io.h2bench.client.wire;

import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;

/**
 * Knows every open TCP connection of the shared client by its local socket address, which is
 * what Jetty's client {@code Connection} of an exchange exposes whatever the protocol. Registered
 * on the {@code ClientConnector} (TCP connect start) and on the {@code HttpClient} (Jetty adds its
 * {@link Connection.Listener} beans to every connection it opens, so TLS handshakes are seen).
 */
public final class WireRegistry implements ClientConnector.ConnectListener, Connection.Listener {

    private final AtomicLong ids = new AtomicLong();
    private final Map<SocketChannel, Long> connectBegins = new ConcurrentHashMap<>();
    private final Map<SocketAddress, WireConnection> byLocalAddress = new ConcurrentHashMap<>();
    private final AtomicLong opened = new AtomicLong();
    private final Set<SslConnection> handshaking = ConcurrentHashMap.newKeySet();

    @Override
    public void onConnectBegin(SocketChannel channel, SocketAddress remote) {
        connectBegins.put(channel, System.nanoTime());
    }

    @Override
    public void onConnectFailure(SocketChannel channel, SocketAddress remote, Throwable failure) {
        connectBegins.remove(channel);
    }

    /** Called by the connector when TCP connected: the end point about to be created gets a wire. */
    public WireConnection connected(SocketChannel channel, SocketAddress local, Object origin) {
        long now = System.nanoTime();
        Long begin = connectBegins.remove(channel);
        WireConnection wire = new WireConnection(ids.incrementAndGet(), origin, begin == null ? now : begin, now);
        if (local != null) {
            byLocalAddress.put(local, wire);
        }
        opened.incrementAndGet();
        return wire;
    }

    public void closed(SocketAddress local) {
        if (local != null) {
            byLocalAddress.remove(local);
        }
    }

    /** The wire under a Jetty client connection, or null if it is already gone. */
    public WireConnection find(org.eclipse.jetty.client.Connection connection) {
        if (connection == null || connection.getLocalSocketAddress() == null) {
            return null;
        }
        return byLocalAddress.get(connection.getLocalSocketAddress());
    }

    /** The wire of the socket bound to {@code local}, or null if it is already gone. */
    public WireConnection find(SocketAddress local) {
        return local == null ? null : byLocalAddress.get(local);
    }

    /**
     * The latest time a TLS handshake still under way on a connection opened for {@code origin}
     * heard from its server (see {@link WireConnection#handshakeHeardNanos()}), or 0 if none is.
     * Scans every open connection: only called when a connect timeout is due.
     */
    public long handshakeHeardNanos(Object origin) {
        long latest = 0;
        for (WireConnection wire : byLocalAddress.values()) {
            if (wire.openedFor(origin)) {
                long heard = wire.handshakeHeardNanos();
                if (heard != 0 && (latest == 0 || heard - latest > 0)) {
                    latest = heard;
                }
            }
        }
        return latest;
    }

    /** An open connection by the id results carry, or null once it closed (for checks of the totals). */
    public WireConnection byId(long id) {
        return byLocalAddress.values().stream().filter(wire -> wire.id() == id).findFirst().orElse(null);
    }

    /** TCP connections opened since the client started (for tests and sanity checks). */
    public long connectionsOpened() {
        return opened.get();
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HTTP2Connection h2) {
            WireConnection wire = byLocalAddress.get(h2.getEndPoint().getLocalSocketAddress());
            if (wire != null) {
                h2.getSession().addEventListener(new GoAwayListener(wire));
            }
            return;
        }
        WireConnection wire = connection instanceof SslConnection ? wireUnder(connection.getEndPoint()) : null;
        if (connection instanceof SslConnection ssl && wire != null) {
            wire.tlsStarted(System.nanoTime());
            handshaking.add(ssl);
            ssl.addHandshakeListener(new SslHandshakeListener() {
                @Override
                public void handshakeSucceeded(Event event) {
                    handshaking.remove(ssl);
                    SSLEngine engine = event.getSSLEngine();
                    wire.tlsHandshakeDone(System.nanoTime(), engine.getApplicationProtocol());
                }

                @Override
                public void handshakeFailed(Event event, Throwable failure) {
                    handshaking.remove(ssl);
                }
            });
        }
    }

    @Override
    public void onClosed(Connection connection) {
        if (connection instanceof SslConnection ssl) {
            handshaking.remove(ssl);
        }
    }

    /**
     * The wire of the socket under {@code endPoint}: the socket's own end point, or a TLS connection's
     * decrypted one over it (the origin's TLS inside a proxy's, which the socket reaches over TLS).
     */
    private static WireConnection wireUnder(EndPoint endPoint) {
        EndPoint at = endPoint;
        while (!(at instanceof CountingEndPoint)) {
            if (!(at instanceof EndPoint.Wrapper wrapper)) {
                return null;
            }
            at = wrapper.unwrap();
        }
        return ((CountingEndPoint) at).wire();
    }

    /** No TLS handshake under way in the client: the selectors have none to finish (connections that read on the user's thread). */
    public boolean noHandshakeUnderWay() {
        return handshaking.isEmpty();
    }

    /** Remembers a GOAWAY on the wire: the closed connection that follows is explained by it. */
    private record GoAwayListener(WireConnection wire) implements HTTP2Session.FrameListener {
        @Override
        public void onIncomingFrame(Session session, Frame frame) {
            if (frame instanceof GoAwayFrame goAway) {
                wire.goAwayReceived(goAway);
            }
        }
    }
}
