package io.h2bench.client.connect;

import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.client.wire.CountingEndPoint;
import io.h2bench.client.wire.WireConnection;
import io.h2bench.client.wire.WireRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Map;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.ssl.SslClientConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A {@link ClientConnector} whose TCP end points count the bytes on the wire. Jetty creates one
 * end point per socket here, below TLS and below every HTTP protocol, so the counts include all
 * framing and encryption. It also makes each socket as the user's {@link ConnectionProfile} asks:
 * bound to its source address, paced to its bandwidth, with its client certificate ({@link ProfileTls}),
 * and its TLS records in heap buffers.
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

    /**
     * TLS records encrypted and decrypted in heap buffers, not Jetty's default direct ones: the JDK's
     * AES-GCM copies a direct buffer through new arrays on every record, which at 400 users with 44 kB
     * bodies came to 7 kB of heap per request (63 against 70 kB, HttpClient4's 71) and 4 to 6 % more
     * CPU per request (benchmarks page, 2026-11-27). Every TLS connection of the client is made here:
     * the origin's ({@link OriginConnector}), and a proxy's reached over TLS with the origin's inside it.
     */
    @Override
    public ClientConnectionFactory newSslClientConnectionFactory(SslContextFactory.Client tls, ClientConnectionFactory next) {
        ClientConnectionFactory factory = super.newSslClientConnectionFactory(tls, next);
        if (factory instanceof SslClientConnectionFactory ssl) {
            ssl.setDirectBuffersForEncryption(false);
            ssl.setDirectBuffersForDecryption(false);
        }
        return factory;
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
        WireConnection wire = registry.connected(socket, local);
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
