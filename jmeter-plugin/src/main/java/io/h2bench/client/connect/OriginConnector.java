package io.h2bench.client.connect;

import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.FailureMessages;
import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.client.profile.ProxySettings;
import io.h2bench.client.wire.WireConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.eclipse.jetty.alpn.client.ALPNClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.NegotiatingClientConnection;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Opens the TCP connections (under TLS when the origin is https) that the sampler drives itself,
 * HTTP/1.1 ({@code DirectConnections}) and HTTP/2 ({@code DirectHttp2Connections}) alike:
 * Jetty's {@code ClientConnector} connects, with the shared client's TLS, source address, DNS, cps
 * and wire counting, each resolved address in turn within the exchange's connect timeout, and the
 * caller's factory makes the connection on the end point. Through the profile's proxy
 * ({@link ProxyHop}) the TCP connect goes to the proxy, and to an https origin through a
 * {@code CONNECT} tunnel ({@link ProxyTunnel}) before the TLS handshake, for both protocols alike;
 * a proxy reached over TLS is spoken to inside a TLS connection of its own ({@link #overProxyTls}).
 */
public final class OriginConnector {

    /** An exchange a connection is opened for: the connect timeout watches it, a failed connect fails it. */
    public interface Waiting {
        ExchangeRequest request();

        /** The recorder of the exchange's events: it knows the connection the exchange was given. */
        ExchangeRecorder recorder();

        boolean finished();

        void fail(Throwable failure);

        default CompletableFuture<ExchangeResult> result() {
            return recorder().result();
        }

        /** On a connection whose TCP connect and TLS handshake are done. */
        default boolean connected() {
            return recorder().hasConnection();
        }

        /** Given a connection (which may still be in its TLS handshake). */
        default boolean assigned() {
            return recorder().isAssigned();
        }

        /** When the TLS handshake under way on its connection last heard from the server, or 0. */
        default long handshakeHeardNanos() {
            WireConnection wire = recorder().wire();
            return wire == null ? 0 : wire.handshakeHeardNanos();
        }
    }

    /** Makes the protocol's connection on a connected end point, which {@code wire} counts. */
    public interface ConnectionMaker {
        Connection newConnection(EndPoint endPoint, WireConnection wire);
    }

    /** Told when no connection could be made for {@code exchange}; it has not failed yet. */
    public interface ConnectFailure {
        void connectFailed(Waiting exchange, Throwable failure);
    }

    private final SharedClient shared;
    private final BooleanSupplier closed;
    private final IntSupplier inFlight;
    private volatile Map<Route, ProxyHop> hops = new ConcurrentHashMap<>();

    /** {@code closed}: the user's connections are closing; {@code inFlight}: the user's exchanges under way here. */
    public OriginConnector(SharedClient shared, BooleanSupplier closed, IntSupplier inFlight) {
        this.shared = shared;
        this.closed = closed;
        this.inFlight = inFlight;
    }

    /** Resolves the origin's host as the profile says and opens a connection for {@code exchange}. */
    public void connect(Waiting exchange, ConnectionProfile profile, ConnectionMaker maker, ConnectFailure failure) {
        connect(exchange, profile, null, maker, failure);
    }

    /**
     * As {@link #connect(Waiting, ConnectionProfile, ConnectionMaker, ConnectFailure)}, offering
     * {@code alpn} in the TLS handshake of an https origin (null: no ALPN); {@code maker} then runs
     * once the handshake has chosen, and reads the choice off the end point ({@link #negotiated}).
     */
    public void connect(Waiting exchange, ConnectionProfile profile, List<String> alpn, ConnectionMaker maker, ConnectFailure failure) {
        URI uri = exchange.request().uri();
        boolean secure = "https".equalsIgnoreCase(uri.getScheme());
        ProxyHop hop = hopFor(uri, profile, ProxyHop.tunnels(uri, exchange.request().mode()));
        String host = hop == null ? uri.getHost() : hop.proxy().host();
        int port = hop != null ? hop.proxy().port() : uri.getPort() > 0 ? uri.getPort() : secure ? 443 : 80;
        Map<String, Object> context = new HashMap<>();
        // Jetty adds the client's connection listeners (the wire registry's TLS handshake times) from here.
        context.put(ClientConnector.HTTP_CLIENT_CONTEXT_KEY, shared.connectionListeners());
        context.put(Transport.class.getName(), Transport.TCP_IP);
        context.put(ProfileRouting.PROFILE_CONTEXT_KEY, profile);
        ClientConnector connector = shared.connector();
        ConnectAttempt attempt = new ConnectAttempt(exchange, connector, context, failure);
        ClientConnectionFactory protocol = new ClientConnectionFactory() {
            @Override
            public Connection newConnection(EndPoint endPoint, Map<String, Object> ignored) {
                attempt.connected = true;
                // The client's connection listeners see it open and close, as they see Jetty's own connections.
                return customize(maker.newConnection(endPoint, shared.registry().find(endPoint.getLocalSocketAddress())), context);
            }
        };
        ClientConnectionFactory overTls = alpn == null ? protocol : negotiating(exchange, connector, protocol, alpn);
        // The TLS engine takes its peer from the resolved address, and its certificate from the profile (ProfileTls).
        ClientConnectionFactory toOrigin = secure ? connector.newSslClientConnectionFactory(null, overTls) : protocol;
        ClientConnectionFactory tunnel = (endPoint, ignored) -> {
            attempt.connected = true;
            WireConnection wire = shared.registry().find(endPoint.getLocalSocketAddress());
            return new ProxyTunnel(endPoint, connector.getExecutor(), hop, exchange, context, toOrigin, failure, wire);
        };
        ClientConnectionFactory firstHop = hop != null && hop.tunnels() ? tunnel : toOrigin;
        context.put(ClientConnectionFactory.CONTEXT_KEY, hop != null && hop.proxy().secure() ? overProxyTls(connector, firstHop, secure) : firstHop);
        shared.routing().resolve(host, port, context,
                Promise.from(attempt::start, cause -> failure.connectFailed(exchange, cause)));
    }

    /**
     * A proxy reached over TLS (proxy scheme https), as Jetty's {@code HttpProxy} reaches a secure one:
     * the socket's TLS handshake is the proxy's, and {@code next} (the CONNECT, or the absolute-form
     * requests of an http origin) runs on its decrypted end point; an https origin's TLS then runs
     * inside that, and is the one the exchange's TLS time and ALPN are taken from.
     */
    private ClientConnectionFactory overProxyTls(ClientConnector connector, ClientConnectionFactory next, boolean originTls) {
        ClientConnectionFactory toProxy = connector.newSslClientConnectionFactory(null, next);
        return (endPoint, context) -> {
            WireConnection wire = shared.registry().find(endPoint.getLocalSocketAddress());
            if (originTls && wire != null) {
                wire.originTlsInside();
            }
            return toProxy.newConnection(endPoint, context);
        };
    }

    /**
     * The user's route to {@code uri}'s origin through the proxy its profile names for the host, or
     * null when it goes direct: one per (proxy, origin, tunnelled: {@link ProxyHop#tunnels}),
     * as HttpClient4 keeps its routes, with what the proxy said about the user's credentials, until the
     * user's connections are reset.
     */
    public ProxyHop hopFor(URI uri, ConnectionProfile profile, boolean tunnels) {
        ProxySettings proxy = profile.proxyFor(uri.getHost());
        if (proxy == null) {
            return null;
        }
        return hops.computeIfAbsent(new Route(proxy, uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort(), tunnels),
                route -> new ProxyHop(proxy, uri, tunnels));
    }

    private record Route(ProxySettings proxy, String origin, boolean tunnels) {
    }

    /**
     * Keeps the user's routes with {@code other}'s: the user's HTTP/1.1 and HTTP/2 connections to an
     * origin share its route, as HttpClient4 keeps one per (origin, proxy), so the proxy asks once.
     */
    public void shareProxyHops(OriginConnector other) {
        hops = other.hops;
    }

    /** Forgets what every proxy said about the user's credentials: a new user starts unasked, as HttpClient4's. */
    public void forgetProxyAnswers() {
        hops.clear();
    }

    /**
     * ALPN in the TLS handshake, and the exchange on the connection's wire from the TCP connect on (its
     * handshake's times and bytes are the exchange's, as an HTTP/1.1 one's are), although the
     * protocol's connection is made only once the handshake has chosen the protocol.
     */
    private ClientConnectionFactory negotiating(Waiting exchange, ClientConnector connector, ClientConnectionFactory protocol,
                                                List<String> alpn) {
        ALPNClientConnectionFactory alpnFactory;
        // It finds the JDK's ALPN processor with the context class loader, which in a test or a tool may not see this plugin's.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(OriginConnector.class.getClassLoader());
        try {
            alpnFactory = new ALPNClientConnectionFactory(connector.getExecutor(), protocol, alpn);
        } finally {
            thread.setContextClassLoader(previous);
        }
        return (endPoint, context) -> {
            exchange.recorder().attach(shared.registry().find(endPoint.getLocalSocketAddress()), true);
            return alpnFactory.newConnection(endPoint, context);
        };
    }

    /**
     * A connection made later on an end point {@link #connect} opened (the h2c Upgrade's): the client's
     * connection listeners see it open and close, as they saw the one before it.
     */
    public Connection listened(Connection connection) {
        shared.connectionListeners().getBeans(Connection.Listener.class).forEach(connection::addEventListener);
        return connection;
    }

    /** The protocol the TLS handshake on {@code endPoint} chose by ALPN, or null (cleartext, or none chosen). */
    public static String negotiated(EndPoint endPoint) {
        return endPoint.getConnection() instanceof NegotiatingClientConnection negotiating ? negotiating.getProtocol() : null;
    }

    /** Tries each resolved address in turn, as Jetty's client does, within the exchange's connect timeout. */
    private final class ConnectAttempt implements Promise<Connection> {

        private final Waiting exchange;
        private final ClientConnector connector;
        private final Map<String, Object> context;
        private final ConnectFailure failure;
        private List<InetSocketAddress> addresses = List.of();
        private int next;
        /** TCP connected and the connection made: from then on its own events end the exchange. */
        private volatile boolean connected;

        ConnectAttempt(Waiting exchange, ClientConnector connector, Map<String, Object> context, ConnectFailure failure) {
            this.exchange = exchange;
            this.connector = connector;
            this.context = context;
            this.failure = failure;
            context.put(ClientConnector.CONNECTION_PROMISE_CONTEXT_KEY, this);
        }

        void start(List<InetSocketAddress> resolved) {
            addresses = resolved;
            armConnectTimer(exchange);
            tryNext(null);
        }

        private void tryNext(Throwable previous) {
            if (next >= addresses.size() || closed.getAsBoolean()) {
                failure.connectFailed(exchange, previous != null ? previous : new UnknownHostException(exchange.request().uri().getHost()));
                return;
            }
            connector.connect(addresses.get(next++), context);
        }

        @Override
        public void succeeded(Connection connection) {
            // TCP connected; the connection reports itself open to its owner.
        }

        @Override
        public void failed(Throwable cause) {
            if (connected) {
                return; // a TLS handshake that failed: the connection's write and close fail the exchange
            }
            if (exchange.finished()) {
                failure.connectFailed(exchange, cause);
            } else {
                tryNext(cause);
            }
        }
    }

    /**
     * The connect timeout as JMeter's HttpClient4 applies it: the TCP connect within it, then each
     * silence of the TLS handshake (HttpClient4 sets the socket's read timeout to the connect timeout
     * for the handshake), so a handshake that keeps hearing from the server goes on however long it
     * takes in all, as 400 handshakes on a busy client do. Jetty's own connect timeout is client-wide;
     * this one is per request. An exchange still waiting for a connection while others of this user
     * are in flight is queued behind busy connections, not connecting, and its timer is re-armed.
     * Armed by {@link #connect} for the exchange it connects for; an exchange that waits for a
     * connection another one opens is armed by its owner.
     */
    public void armConnectTimer(Waiting exchange) {
        long millis = exchange.request().connectTimeout().toMillis();
        if (millis <= 0) {
            return;
        }
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(millis);
        Scheduler scheduler = shared.connector().getScheduler();
        Runnable check = new Runnable() {
            @Override
            public void run() {
                if (exchange.finished() || exchange.connected()) {
                    return;
                }
                long heard = exchange.handshakeHeardNanos();
                long silent = System.nanoTime() - heard;
                if (heard != 0 && silent < timeoutNanos) {
                    scheduler.schedule(this, timeoutNanos - silent, TimeUnit.NANOSECONDS);
                } else if (heard == 0 && !exchange.assigned() && inFlight.getAsInt() > 1) {
                    scheduler.schedule(this, millis, TimeUnit.MILLISECONDS);
                } else {
                    exchange.fail(new FailureMessages.ConnectTimeoutException(millis, heard != 0));
                }
            }
        };
        Scheduler.Task task = scheduler.schedule(check, millis, TimeUnit.MILLISECONDS);
        exchange.result().whenComplete((done, cause) -> task.cancel());
    }
}
