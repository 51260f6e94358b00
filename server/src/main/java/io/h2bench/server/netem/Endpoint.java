package io.h2bench.server.netem;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/** One socket of a proxied connection: the pipe reading from it, the pipe writing to it. */
final class Endpoint implements EventLoop.Handler {

    private final SocketChannel channel;
    private final ProxiedConnection connection;
    private SelectionKey key;
    private Pipe inbound;
    private Pipe outbound;

    Endpoint(SocketChannel channel, ProxiedConnection connection) {
        this.channel = channel;
        this.connection = connection;
    }

    SocketChannel channel() {
        return channel;
    }

    void register(EventLoop loop, int ops) {
        key = loop.register(channel, ops, this);
    }

    /** {@code inbound} reads from this socket, {@code outbound} writes to it. */
    void connect(Pipe inbound, Pipe outbound) {
        this.inbound = inbound;
        this.outbound = outbound;
    }

    void reading(boolean on) {
        interest(SelectionKey.OP_READ, on);
    }

    void writing(boolean on) {
        interest(SelectionKey.OP_WRITE, on);
    }

    @Override
    public void onReady(SelectionKey ready) throws IOException {
        if (ready.isConnectable()) {
            connection.onTargetConnected();
            return;
        }
        if (ready.isReadable()) {
            inbound.onReadable();
        }
        if (ready.isValid() && ready.isWritable()) {
            outbound.onWritable();
        }
    }

    @Override
    public void onFailure(IOException e) {
        connection.abort();
    }

    /** Forgets OP_CONNECT once the connection is established. */
    void clearInterest() {
        if (key != null && key.isValid()) {
            key.interestOps(0);
        }
    }

    private void interest(int op, boolean on) {
        if (key == null || !key.isValid()) {
            return;
        }
        int ops = key.interestOps();
        int wanted = on ? ops | op : ops & ~op;
        if (wanted != ops) {
            key.interestOps(wanted);
        }
    }
}
