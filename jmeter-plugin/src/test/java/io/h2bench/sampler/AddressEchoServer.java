package io.h2bench.sampler;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A Jetty server on 127.0.0.1, port 0, speaking HTTP/1.1 and h2c (prior knowledge) on one port,
 * that answers every request with the client's IP address, as the server saw the socket.
 */
final class AddressEchoServer implements AutoCloseable {

    private final Server server = new Server();
    private final ServerConnector connector;
    private final AtomicInteger requests = new AtomicInteger();

    AddressEchoServer() throws Exception {
        HttpConfiguration config = new HttpConfiguration();
        connector = new ServerConnector(server, new HttpConnectionFactory(config), new HTTP2CServerConnectionFactory(config));
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                requests.incrementAndGet();
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                String address = Request.getRemoteAddr(request);
                Content.Sink.write(response, true, address, callback);
                return true;
            }
        });
        server.start();
    }

    int port() {
        return connector.getLocalPort();
    }

    int requests() {
        return requests.get();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }

}
