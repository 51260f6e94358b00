package io.h2bench.client;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;

/**
 * A {@link ClientConnector} whose TCP end points count the bytes on the wire. Jetty creates one
 * end point per socket here, below TLS and below every HTTP protocol, so the counts include all
 * framing and encryption.
 */
final class WiretapConnector extends ClientConnector {

    private final WireRegistry registry;

    WiretapConnector(WireRegistry registry) {
        this.registry = registry;
        addEventListener(registry);
    }

    @Override
    protected EndPoint newEndPoint(SelectableChannel channel, ManagedSelector selector, SelectionKey key) {
        SocketChannel socket = (SocketChannel) channel;
        SocketAddress local = localAddress(socket);
        WireConnection wire = registry.connected(socket, local);
        CountingEndPoint endPoint = new CountingEndPoint(socket, selector, key, getScheduler(), wire,
                () -> registry.closed(local));
        endPoint.setIdleTimeout(getIdleTimeout().toMillis());
        return endPoint;
    }

    private static SocketAddress localAddress(SocketChannel socket) {
        try {
            return socket.getLocalAddress();
        } catch (IOException closed) {
            return null;
        }
    }
}
