package io.h2bench.client.wire;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;

/**
 * Knows every open TCP connection of the shared client by its local socket address, which every
 * end point above the socket (TLS's decrypted ones included) exposes. Registered on the
 * {@code ClientConnector} (TCP connect start) and among the client's connection listeners (Jetty
 * adds them to every connection made for it, so TLS handshakes are seen).
 */
public final class WireRegistry implements ClientConnector.ConnectListener, Connection.Listener {

    private final AtomicLong ids = new AtomicLong();
    private final Map<SocketChannel, Long> connectBegins = new ConcurrentHashMap<>();
    private final Map<SocketAddress, WireConnection> byLocalAddress = new ConcurrentHashMap<>();
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
    public WireConnection connected(SocketChannel channel, SocketAddress local) {
        long now = System.nanoTime();
        Long begin = connectBegins.remove(channel);
        WireConnection wire = new WireConnection(ids.incrementAndGet(), begin == null ? now : begin, now);
        if (local != null) {
            byLocalAddress.put(local, wire);
        }
        return wire;
    }

    public void closed(SocketAddress local) {
        if (local != null) {
            byLocalAddress.remove(local);
        }
    }

    /** The wire of the socket bound to {@code local}, or null if it is already gone. */
    public WireConnection find(SocketAddress local) {
        return local == null ? null : byLocalAddress.get(local);
    }

    /** An open connection by the id results carry, or null once it closed (for checks of the totals). */
    public WireConnection byId(long id) {
        return byLocalAddress.values().stream().filter(wire -> wire.id() == id).findFirst().orElse(null);
    }

    /** The local port of the open connection numbered {@code id}, or 0 once it closed. */
    public int localPort(long id) {
        return byLocalAddress.entrySet().stream()
                .filter(entry -> entry.getValue().id() == id && entry.getKey() instanceof InetSocketAddress)
                .mapToInt(entry -> ((InetSocketAddress) entry.getKey()).getPort()).findFirst().orElse(0);
    }

    @Override
    public void onOpened(Connection connection) {
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
}
