package io.h2bench.server;

import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.nio.channels.SelectableChannel;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import io.h2bench.server.objects.TestObjects;

/** The embedded Jetty server: four listeners, one set of test objects. Start it on port 0 in tests. */
public final class H2BenchServer implements AutoCloseable {

    private final Server server;
    private final Map<Listener, ServerConnector> connectors;
    private final Map<Listener, AtomicLong> accepted;
    private final TlsMaterial tls;
    private final String host;

    private H2BenchServer(Server server, Map<Listener, ServerConnector> connectors,
                          Map<Listener, AtomicLong> accepted, TlsMaterial tls, String host) {
        this.server = server;
        this.connectors = connectors;
        this.accepted = accepted;
        this.tls = tls;
        this.host = host;
    }

    /** Starts every listener; a port already in use fails with a {@link PortInUseException}. */
    public static H2BenchServer start(ServerSettings settings) throws Exception {
        TlsMaterial tls = tlsMaterial(settings);
        QueuedThreadPool threads = new QueuedThreadPool(200, 8);
        threads.setName("h2bench-server");
        Server server = new Server(threads);
        Connectors factory = new Connectors(server, tls);
        Map<Listener, ServerConnector> connectors = new EnumMap<>(Listener.class);
        Map<Listener, AtomicLong> accepted = new EnumMap<>(Listener.class);
        for (Listener listener : Listener.values()) {
            ServerConnector connector = factory.create(listener);
            connector.setName(listener.id());
            connector.setHost(settings.bind());
            connector.setPort(settings.port(listener));
            AtomicLong count = new AtomicLong();
            connector.getSelectorManager().addEventListener(new SelectorManager.AcceptListener() {
                @Override
                public void onAccepted(SelectableChannel channel) {
                    count.incrementAndGet();
                }
            });
            server.addConnector(connector);
            connectors.put(listener, connector);
            accepted.put(listener, count);
        }
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        server.setErrorHandler(errors);
        server.setHandler(TestObjects.context());
        server.setStopAtShutdown(true);
        try {
            server.start();
        } catch (IOException e) {
            Exception failure = bindFailure(settings, connectors, e);
            server.stop();
            throw failure;
        }
        return new H2BenchServer(server, connectors, accepted, tls, uriHost(settings.bind()));
    }

    public int port(Listener listener) {
        return connectors.get(listener).getLocalPort();
    }

    /** {@code http(s)://host:port} of a listener, with the real port when it was 0. */
    public URI baseUri(Listener listener) {
        return URI.create(listener.scheme() + "://" + host + ":" + port(listener));
    }

    /** TCP connections this listener accepted since start: tests count a client's connections with it. */
    public long connectionsAccepted(Listener listener) {
        return accepted.get(listener).get();
    }

    public TlsMaterial tls() {
        return tls;
    }

    /** Blocks until the server stops (Ctrl-C in the console). */
    public void join() throws InterruptedException {
        server.join();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("server did not stop cleanly: " + e.getMessage(), e);
        }
    }

    private static TlsMaterial tlsMaterial(ServerSettings settings) throws IOException {
        if (settings.keystore() != null) {
            String password = settings.keystorePassword() == null ? "" : settings.keystorePassword();
            return TlsMaterial.load(settings.keystore(), password, false);
        }
        return TlsMaterial.load(TlsMaterial.defaultKeystore(), TlsMaterial.GENERATED_PASSWORD, true);
    }

    private static Exception bindFailure(ServerSettings settings, Map<Listener, ServerConnector> connectors, IOException e) {
        if (!(e instanceof BindException) && !(e.getCause() instanceof BindException)) {
            return e;
        }
        for (Map.Entry<Listener, ServerConnector> entry : connectors.entrySet()) {
            if (entry.getValue().getLocalPort() <= 0 && settings.port(entry.getKey()) != 0) {
                return new PortInUseException(entry.getKey(), settings.bind(), settings.port(entry.getKey()), e);
            }
        }
        return e;
    }

    private static String uriHost(String bind) {
        if (bind.equals("0.0.0.0") || bind.equals("::")) {
            return "127.0.0.1";
        }
        return bind.contains(":") ? "[" + bind + "]" : bind;
    }

    /** A listener's port is taken by another program. */
    public static final class PortInUseException extends IOException {
        private final Listener listener;

        PortInUseException(Listener listener, String bind, int port, Throwable cause) {
            super("port " + port + " on " + bind + " for " + listener.id() + " is already in use", cause);
            this.listener = listener;
        }

        public Listener listener() {
            return listener;
        }
    }
}
