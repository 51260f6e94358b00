package io.h2bench.server;

import java.net.URI;
import java.util.concurrent.CompletableFuture;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;

import io.h2bench.server.h3.QuicOptions;

/**
 * The server's own h3 listener ({@link Connectors#http3}), alone on 127.0.0.1, in front of a test's
 * handler: for what the served objects, which finish at once, do not provoke. The listener gets the
 * test's beans before it starts; a {@link RawH3Client} connects to it.
 */
final class H3ListenerAlone implements AutoCloseable {

    private final Server server;
    private final int port;
    private final RawH3Client client;

    private H3ListenerAlone(Server server, int port, RawH3Client client) {
        this.server = server;
        this.port = port;
        this.client = client;
    }

    /** The listener in front of {@code handler}, and its client. */
    static H3ListenerAlone start(Handler handler, Object... listenerBeans) throws Exception {
        Server server = new Server();
        TlsMaterial tls = TlsMaterial.load(TlsMaterial.defaultKeystore(), TlsMaterial.GENERATED_PASSWORD, true);
        Http3Listener h3 = new Connectors(server, tls, TlsProfile.WEB, TlsProvider.JSSE, new AltSvc(), ServerSettings.JETTY_SELECTORS).http3("127.0.0.1", QuicOptions.defaults());
        server.setHandler(handler);
        for (Object bean : listenerBeans) {
            server.getConnectors()[0].addBean(bean);
        }
        h3.open(null, 0, 0);
        server.start();
        return new H3ListenerAlone(server, h3.port(), RawH3Client.start());
    }

    /** A new QUIC connection of the client to the listener. */
    CompletableFuture<RawH3Client.Connection> connect() {
        return client.connect(port);
    }

    URI uri(String path) {
        return URI.create("https://127.0.0.1:" + port + path);
    }

    @Override
    public void close() throws Exception {
        try {
            client.close();
        } finally {
            server.stop();
        }
    }
}
