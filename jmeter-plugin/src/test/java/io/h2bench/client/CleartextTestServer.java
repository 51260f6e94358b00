package io.h2bench.client;

import java.time.Duration;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** A Jetty server on a free loopback port, HTTP/1.1 and h2c, around a handler that misbehaves on purpose. */
final class CleartextTestServer implements AutoCloseable {

    private final Server server;
    private final int port;
    private final OpenConnections open;

    private CleartextTestServer(Server server, int port, OpenConnections open) {
        this.server = server;
        this.port = port;
        this.open = open;
    }

    static CleartextTestServer start(Handler handler) throws Exception {
        return start(handler, null);
    }

    /** With the connector's idle timeout {@code idleTimeout} (Jetty's default when null), after which it closes a connection. */
    static CleartextTestServer start(Handler handler, Duration idleTimeout) throws Exception {
        Server server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        ServerConnector connector = new ServerConnector(server,
                new HttpConnectionFactory(config), new HTTP2CServerConnectionFactory(config));
        connector.setHost("127.0.0.1");
        if (idleTimeout != null) {
            connector.setIdleTimeout(idleTimeout.toMillis());
        }
        OpenConnections open = new OpenConnections();
        connector.addBean(open);
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
        return new CleartextTestServer(server, connector.getLocalPort(), open);
    }

    int port() {
        return port;
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
