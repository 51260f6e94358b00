package io.h2bench.server.netem;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A client connection accepted by the proxy and its own connection to the target, joined by two
 * pipes: up (client to target) and down (target to client).
 */
final class ProxiedConnection {

    private static final Logger LOG = Logger.getLogger(ProxiedConnection.class.getName());

    private final Emulation emulation;
    private final long index;
    private final long acceptedAt;
    private final Endpoint client;
    private final Endpoint target;
    private final Consumer<ProxiedConnection> onClosed;
    private Pipe up;
    private Pipe down;
    private boolean closed;

    private ProxiedConnection(Emulation emulation, long index, SocketChannel clientChannel,
                              SocketChannel targetChannel, Consumer<ProxiedConnection> onClosed) {
        this.emulation = emulation;
        this.index = index;
        this.acceptedAt = System.nanoTime();
        this.client = new Endpoint(clientChannel, this);
        this.target = new Endpoint(targetChannel, this);
        this.onClosed = onClosed;
    }

    /** Starts connecting to {@code targetAddress} for a freshly accepted client; loop thread. */
    static ProxiedConnection open(Emulation emulation, long index, SocketChannel clientChannel,
                                  InetSocketAddress targetAddress, Consumer<ProxiedConnection> onClosed)
            throws IOException {
        SocketChannel targetChannel = SocketChannel.open();
        ProxiedConnection connection = new ProxiedConnection(emulation, index, clientChannel, targetChannel, onClosed);
        try {
            for (SocketChannel c : new SocketChannel[] {clientChannel, targetChannel}) {
                c.configureBlocking(false);
                // Nagle in the proxy would add delays the emulated link does not have.
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            connection.client.register(emulation.loop(), 0);
            if (targetChannel.connect(targetAddress)) {
                connection.target.register(emulation.loop(), 0);
                connection.onTargetConnected();
            } else {
                connection.target.register(emulation.loop(), SelectionKey.OP_CONNECT);
            }
        } catch (IOException e) {
            connection.abort();
            throw e;
        }
        return connection;
    }

    long index() {
        return index;
    }

    boolean isClosed() {
        return closed;
    }

    /** The target accepted: bytes may flow both ways. */
    void onTargetConnected() throws IOException {
        target.channel().finishConnect();
        target.clearInterest();
        up = new Pipe(emulation, this, client, target, false, acceptedAt);
        down = new Pipe(emulation, this, target, client, true, acceptedAt);
        client.connect(up, down);
        target.connect(down, up);
        client.reading(true);
        target.reading(true);
    }

    /** A pipe delivered its source's FIN to {@code destination}: half-close it, close when both are done. */
    void finDelivered(Endpoint destination) {
        try {
            destination.channel().shutdownOutput();
        } catch (IOException e) {
            abort();
            return;
        }
        if (up.finDelivered() && down.finDelivered()) {
            close(false);
        }
    }

    /** Resets both sides: what a peer sees when the other end's connection was reset. */
    void abort() {
        close(true);
    }

    private void close(boolean reset) {
        if (closed) {
            return;
        }
        closed = true;
        if (up != null) {
            up.discard();
            down.discard();
        }
        closeQuietly(client, reset);
        closeQuietly(target, reset);
        onClosed.accept(this);
    }

    private static void closeQuietly(Endpoint endpoint, boolean reset) {
        try {
            if (reset && endpoint.channel().isOpen()) {
                // Linger 0 makes close() send RST instead of FIN.
                endpoint.channel().setOption(StandardSocketOptions.SO_LINGER, 0);
            }
        } catch (IOException e) {
            LOG.log(Level.FINE, "setting linger for reset", e);
        }
        try {
            endpoint.channel().close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing proxied socket", e);
        }
    }
}
