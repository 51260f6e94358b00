package io.h2bench.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.util.IO;

/**
 * Caps one listener's open connections, in all and per client address, by closing a connection
 * as soon as it is accepted when either cap is full. Jetty's {@code NetworkConnectionLimit} stops
 * accepting instead, so that everyone, bystanders too, waits in the kernel's backlog behind the
 * connections that fill it; a slowloris from one address fills the per-client cap and no more.
 * Refusals go to a {@link RefusalLog}, which writes a line per interval, not per connection.
 */
final class ConnectionCap implements SelectorManager.AcceptListener {

    private final int maxConnections;
    private final int maxPerClient;
    private final RefusalLog log;
    private final Map<SelectableChannel, InetAddress> open = new HashMap<>();
    private final Map<InetAddress, Integer> perClient = new HashMap<>();

    ConnectionCap(int maxConnections, int maxPerClient, RefusalLog log) {
        this.maxConnections = maxConnections;
        this.maxPerClient = maxPerClient;
        this.log = log;
    }

    @Override
    public void onAccepting(SelectableChannel channel) {
        InetAddress client = clientOf(channel);
        String refusal;
        synchronized (this) {
            int fromClient = perClient.getOrDefault(client, 0);
            if (open.size() >= maxConnections) {
                refusal = "--max-connections " + maxConnections;
            } else if (fromClient >= maxPerClient) {
                refusal = "--max-connections-per-client " + maxPerClient;
            } else {
                open.put(channel, client);
                perClient.put(client, fromClient + 1);
                return;
            }
        }
        IO.close(channel); // Jetty's accept then fails on the closed channel and forgets it
        log.refused(client, refusal);
    }

    @Override
    public void onAcceptFailed(SelectableChannel channel, Throwable cause) {
        release(channel);
    }

    @Override
    public void onClosed(SelectableChannel channel) {
        release(channel);
    }

    /** Connections open now, as the cap counts them. */
    synchronized int open() {
        return open.size();
    }

    private synchronized void release(SelectableChannel channel) {
        InetAddress client = open.remove(channel);
        if (client != null) {
            perClient.computeIfPresent(client, (address, count) -> count == 1 ? null : count - 1);
        }
    }

    private static InetAddress clientOf(SelectableChannel channel) {
        try {
            if (channel instanceof SocketChannel socket && socket.getRemoteAddress() instanceof InetSocketAddress remote) {
                return remote.getAddress();
            }
        } catch (IOException e) {
            // closed by the peer already: counted under no address until Jetty forgets it
        }
        return null;
    }
}
