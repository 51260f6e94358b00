package io.h2bench.client;

import io.h2bench.parity.ParityPeer;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A Jetty server on free loopback ports around a handler that misbehaves on purpose: HTTP/1.1 and h2c
 * on one port, and, when asked for, TLS with ALPN (h2, http/1.1) on another.
 */
final class LoopbackTestServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector clear;
    private final ServerConnector secure;
    private final OpenConnections open;

    private LoopbackTestServer(Server server, ServerConnector clear, ServerConnector secure, OpenConnections open) {
        this.server = server;
        this.clear = clear;
        this.secure = secure;
        this.open = open;
    }

    static LoopbackTestServer start(Handler handler) throws Exception {
        return start(handler, null, null);
    }

    /**
     * With the connectors' idle timeout {@code idleTimeout} (Jetty's default when null), after which
     * they close a connection, and a TLS port with a self-signed certificate kept in {@code tlsDir}
     * (none when null).
     */
    static LoopbackTestServer start(Handler handler, Duration idleTimeout, Path tlsDir) throws Exception {
        Server server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        OpenConnections open = new OpenConnections();
        ServerConnector clear = connector(server, idleTimeout, open,
                new HttpConnectionFactory(config), new HTTP2CServerConnectionFactory(config));
        ServerConnector secure = null;
        if (tlsDir != null) {
            secure = connector(server, idleTimeout, open, ParityPeer.tlsFactories(config, tlsDir));
        }
        server.setHandler(handler);
        server.start();
        return new LoopbackTestServer(server, clear, secure, open);
    }

    private static ServerConnector connector(Server server, Duration idleTimeout, OpenConnections open,
                                             ConnectionFactory... factories) {
        ServerConnector connector = new ServerConnector(server, factories);
        connector.setHost("127.0.0.1");
        if (idleTimeout != null) {
            connector.setIdleTimeout(idleTimeout.toMillis());
        }
        connector.addBean(open);
        server.addConnector(connector);
        return connector;
    }

    /** The HTTP/1.1 and h2c port. */
    int port() {
        return clear.getLocalPort();
    }

    /** The TLS port. */
    int securePort() {
        return secure.getLocalPort();
    }

    /** Waits until the server has closed every connection it had; false if one is still open after {@code timeout}. */
    boolean awaitNoOpenConnection(Duration timeout) throws InterruptedException {
        return open.awaitNone(timeout);
    }

    /** The server's connections open now, told by its connector as they open and close. */
    private static final class OpenConnections implements Connection.Listener {

        private int count;

        @Override
        public synchronized void onOpened(Connection connection) {
            count++;
        }

        @Override
        public synchronized void onClosed(Connection connection) {
            count--;
            notifyAll();
        }

        synchronized boolean awaitNone(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            long left = timeout.toMillis();
            while (count > 0 && left > 0) {
                wait(left);
                left = (deadline - System.nanoTime()) / 1_000_000;
            }
            return count == 0;
        }
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
