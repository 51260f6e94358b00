package io.h2bench.server.netem;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A TCP proxy that makes the path between its clients and one target behave like an emulated
 * link (see the package documentation for the exact semantics). One per listener; its bandwidth
 * is one link shared by all its connections. Two threads, whatever the number of connections.
 */
public final class LatencyProxy implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LatencyProxy.class.getName());

    private final ServerSocketChannel server;
    private final InetSocketAddress address;
    private final InetSocketAddress target;
    private final LinkProfile profile;
    private final EventLoop loop;
    private final Emulation emulation;
    private final Set<ProxiedConnection> open = new HashSet<>();
    private final AtomicLong accepted = new AtomicLong();
    private volatile boolean closed;

    private LatencyProxy(ServerSocketChannel server, InetSocketAddress target, LinkProfile profile)
            throws IOException {
        this.server = server;
        this.address = (InetSocketAddress) server.getLocalAddress();
        this.target = target;
        this.profile = profile;
        this.loop = new EventLoop("h2bench-netem-" + address.getPort());
        this.emulation = new Emulation(loop, profile);
    }

    /**
     * Listens on {@code listen} (port 0 picks a free one, see {@link #address()}) and forwards every
     * accepted connection to {@code target} through the emulated link.
     */
    public static LatencyProxy start(InetSocketAddress listen, InetSocketAddress target, LinkProfile profile)
            throws IOException {
        if (target.isUnresolved()) {
            throw new IOException("cannot resolve target host " + target.getHostString());
        }
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(listen, 1024);
            server.configureBlocking(false);
            LatencyProxy proxy = new LatencyProxy(server, target, profile);
            proxy.loop.register(server, SelectionKey.OP_ACCEPT, proxy.new Acceptor());
            proxy.loop.start();
            return proxy;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The address clients connect to, with the real port when started on port 0. */
    public InetSocketAddress address() {
        return address;
    }

    public InetSocketAddress target() {
        return target;
    }

    public LinkProfile profile() {
        return profile;
    }

    /** TCP connections accepted since start. */
    public long connectionsAccepted() {
        return accepted.get();
    }

    /** Data segments that crossed the link, both directions, lost ones included. */
    public long segmentsSent() {
        return emulation.segmentsSent();
    }

    /** Segments drawn lost (delivered late by a retransmission). */
    public long segmentsLost() {
        return emulation.segmentsLost();
    }

    /** Stops listening and resets every open connection. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        loop.execute(this::closeOnLoop);
        loop.close();
    }

    private void closeOnLoop() {
        try {
            server.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing listener", e);
        }
        for (ProxiedConnection connection : Set.copyOf(open)) {
            connection.abort();
        }
    }

    /** Accepts every pending client and starts its connection to the target. */
    private final class Acceptor implements EventLoop.Handler {
        @Override
        public void onReady(SelectionKey key) throws IOException {
            SocketChannel client;
            while ((client = server.accept()) != null) {
                long index = accepted.getAndIncrement();
                try {
                    open.add(ProxiedConnection.open(emulation, index, client, target, open::remove));
                } catch (IOException e) {
                    LOG.log(Level.FINE, "cannot reach target " + target, e);
                }
            }
        }

        @Override
        public void onFailure(IOException e) {
            LOG.log(Level.WARNING, "accepting on " + address + " failed", e);
        }
    }
}
