package io.h2bench.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Map;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;

/**
 * A {@link ClientConnector} whose TCP end points count the bytes on the wire. Jetty creates one
 * end point per socket here, below TLS and below every HTTP protocol, so the counts include all
 * framing and encryption. It also makes each socket as the user's {@link ConnectionProfile} asks:
 * bound to its source address, paced to its bandwidth, with its client certificate ({@link ProfileTls}).
 */
final class WiretapConnector extends ClientConnector {

    /** The source address of the connect in progress on this thread ({@code connect} is synchronous up to the bind). */
    private static final ThreadLocal<InetAddress> BINDING = new ThreadLocal<>();

    private final WireRegistry registry;

    WiretapConnector(WireRegistry registry) {
        this.registry = registry;
        setSslContextFactory(new ProfileTls());
        addEventListener(registry);
    }

    @Override
    public void connect(SocketAddress address, Map<String, Object> context) {
        BINDING.set(ProfileRouting.profileOf(context).sourceAddress());
        try {
            super.connect(address, context);
        } finally {
            BINDING.remove();
        }
    }

    @Override
    protected void configure(SelectableChannel selectable) throws IOException {
        super.configure(selectable);
        InetAddress source = BINDING.get();
        if (source != null && selectable instanceof NetworkChannel channel) {
            channel.bind(new InetSocketAddress(source, 0));
        }
    }

    @Override
    protected EndPoint newEndPoint(SelectableChannel channel, ManagedSelector selector, SelectionKey key) {
        SocketChannel socket = (SocketChannel) channel;
        SocketAddress local = localAddress(socket);
        @SuppressWarnings("unchecked")
        Map<String, Object> context = key.attachment() instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
        WireConnection wire = registry.connected(socket, local, ProfileRouting.originOf(context));
        CountingEndPoint endPoint = new CountingEndPoint(socket, selector, key, getScheduler(), wire,
                () -> registry.closed(local), ProfileRouting.profileOf(context).cps());
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
