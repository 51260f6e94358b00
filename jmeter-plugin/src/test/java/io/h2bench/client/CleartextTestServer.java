package io.h2bench.client;

import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** A Jetty server on a free loopback port, HTTP/1.1 and h2c, around a handler that misbehaves on purpose. */
final class CleartextTestServer implements AutoCloseable {

    private final Server server;
    private final int port;

    private CleartextTestServer(Server server, int port) {
        this.server = server;
        this.port = port;
    }

    static CleartextTestServer start(Handler handler) throws Exception {
        Server server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        ServerConnector connector = new ServerConnector(server,
                new HttpConnectionFactory(config), new HTTP2CServerConnectionFactory(config));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
        return new CleartextTestServer(server, connector.getLocalPort());
    }

    int port() {
        return port;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
