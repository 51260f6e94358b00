package io.h2bench.client.h1;

import io.h2bench.client.connect.ProxyHop;
import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.direct.AbstractDirectConnections;
import io.h2bench.client.direct.AlpnHandover;
import io.h2bench.client.direct.DirectExchange;
import io.h2bench.client.direct.OriginKey;
import io.h2bench.client.direct.UpgradeHandover;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.wire.WireConnection;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;

/**
 * A virtual user's HTTP/1.1 connections that the sampler drives itself (issue 20): Jetty's
 * {@code ClientConnector} opens them (with the shared client's TLS, source address, DNS, cps and
 * wire counting), and Jetty's HTTP/1.1 codec carries the requests ({@link Http11Connection}). Up to
 * the request's connections per origin, as a browser opens; more requests wait here, in order, for
 * the first connection free.
 * <p>
 * Through a proxy, as HttpClient4 goes: plain http on a connection to the proxy, the request line
 * naming the whole URI, and https through a {@code CONNECT} tunnel ({@code OriginConnector}); one
 * pool per (proxy, origin). A request that expects a 100 Continue comes here ({@code ContinueWait}:
 * the body after the header block, as HttpClient4 sends it), and so do a redirected request's hops.
 * <p>
 * An https request that may fall back from h2 ({@code ExchangeRequest#alpnFallback}, the sampler's
 * default) comes here on the TLS connection {@code DirectHttp2Connections} opened when the server's
 * ALPN chose http/1.1 or nothing ({@link #adopt}), with the requests that waited for it. The origin's
 * choice is then remembered as Jetty's {@code HttpClient} remembers it, in its live connections
 * ({@link #choseHttp11}): while one of this user's HTTP/1.1 connections to it lives, its requests
 * come here directly, and the connections opened for them meanwhile are HTTP/1.1 ones as this class
 * always opens them (no ALPN); once none lives, the next request offers h2 again.
 * <p>
 * An h2c Upgrade request comes here from {@code DirectHttp2Connections} ({@link #take}), to go out
 * with {@code Upgrade: h2c}, {@code HTTP2-Settings} (the user's preset's SETTINGS,
 * {@code BrowserPreset.Http2#upgradeHeader}) and {@code Connection: Upgrade, HTTP2-Settings}, as curl's {@code --http2}
 * sends them, on a free connection or a new one. On the server's 101 the connection leaves this
 * pool: its socket goes on as HTTP/2 ({@link UpgradeHandover}). Any other answer is the request's
 * response over HTTP/1.1, and the connection stays here.
 */
public final class DirectConnections extends AbstractDirectConnections<Http11Exchange> implements AlpnHandover {

    /** The name its samples carry (ExchangeResult#engine): the sampler's own HTTP/1.1. */
    public static final String ENGINE = "h1-own";

    /** Where a connection goes on the server's 101 to an h2c Upgrade; null: nowhere, no request asks for one. */
    private volatile UpgradeHandover http2;

    public DirectConnections(SharedClient shared, ResponseTimeouts responseTimeouts) {
        super(shared, responseTimeouts, Http11Exchange::new, ENGINE);
    }

    /** Lets {@code handover} (the user's own HTTP/2) carry on the connections the server upgraded to h2c. */
    public void upgradeTo(UpgradeHandover handover) {
        http2 = handover;
    }

    /** Whether ALPN chose http/1.1 on a connection of this user to {@code key}'s origin, and one of them still lives. */
    public boolean choseHttp11(OriginKey key) {
        return existingOrigin(key) instanceof Origin origin && origin.choseByAlpn;
    }

    @Override
    public Connection adopt(OriginKey key, EndPoint endPoint, WireConnection wire, DirectExchange from) {
        return ((Origin) origin(key)).adopt(successorOf(from), endPoint, wire);
    }

    @Override
    public void take(OriginKey key, DirectExchange from) {
        origin(key).send(successorOf(from));
    }

    @Override
    protected OriginConnections<?> newOrigin(OriginKey key) {
        URI origin = URI.create(key.origin());
        // HTTP/1.1 tunnels only to https: an h2c Upgrade through a proxy is an absolute-form request
        ProxyHop hop = connector.hopFor(origin, key.profile(), "https".equalsIgnoreCase(origin.getScheme()));
        return new Origin(key, hop != null && !hop.tunnels());
    }

    /** One origin's connections of this user, free or busy, and the requests waiting for one. */
    private final class Origin extends OriginConnections<Http11Connection> implements Http11Connection.Owner {

        /** Plain http through a proxy: requests name the whole URI (RFC 9112 3.2.2). */
        private final boolean absoluteForm;
        private final ArrayDeque<Http11Connection> free = new ArrayDeque<>();
        /** Connections handed over by ALPN that have not opened yet, and the exchange each carries first. */
        private final Map<Http11Connection, Http11Exchange> adopted = new HashMap<>();
        /** ALPN chose http/1.1 on one of the connections, and some live: the origin's choice, remembered. */
        private volatile boolean choseByAlpn;

        /** The h2c Upgrade's {@code HTTP2-Settings}, made on the first request that asks for it. */
        private volatile String http2Settings;

        Origin(OriginKey key, boolean absoluteForm) {
            super(key);
            this.absoluteForm = absoluteForm;
        }

        @Override
        public void send(Http11Exchange exchange) {
            while (true) {
                Http11Connection connection;
                boolean connect = false;
                synchronized (this) {
                    connection = free.pollFirst();
                    if (connection == null) {
                        connect = waiting.add(exchange, open.size(), exchange.request().maxConnectionsPerOrigin());
                    }
                }
                if (connection == null) {
                    if (connect) {
                        connect(exchange);
                    }
                    return;
                }
                if (connection.reusable()) {
                    connection.send(exchange);
                    return;
                }
                // The server closed it while it was idle: closed() has let it go; the next one, or a new one.
            }
        }

        @Override
        public void opened(Http11Connection connection) {
            Http11Exchange next;
            Http11Exchange first;
            synchronized (this) {
                waiting.connected();
                open.add(connection);
                first = adopted.remove(connection);
                if (first != null && first.result().isDone()) {
                    first = null; // it ended during the handshake (its timeout, the stop button): the next one goes
                }
                next = first != null ? first : waiting.poll();
                if (next == null || closing) {
                    free.add(connection);
                }
            }
            if (closing) {
                connection.close();
                if (first != null) {
                    failClosed(first);
                }
            } else if (next != null) {
                connection.send(next);
            }
        }

        @Override
        public void released(Http11Connection connection, boolean reusable) {
            if (!reusable) {
                return; // closed() follows
            }
            Http11Exchange next;
            synchronized (this) {
                next = waiting.poll();
                if (next == null) {
                    free.addFirst(connection);
                }
            }
            if (next != null) {
                connection.send(next);
            }
        }

        @Override
        public String upgradeSettings() {
            String settings = http2Settings;
            if (settings == null && http2 != null) {
                settings = profile.preset().http2().upgradeHeader();
                http2Settings = settings;
            }
            return settings;
        }

        @Override
        public Connection upgraded(Http11Connection connection, Http11Exchange exchange) {
            return http2.adopt(key, connection.getEndPoint(), connection.wire(), exchange);
        }

        @Override
        public void closed(Http11Connection connection, Throwable cause) {
            Http11Exchange replace = null;
            synchronized (this) {
                free.remove(connection);
                if (!open.remove(connection)) {
                    return;
                }
                if (open.isEmpty() && adopted.isEmpty()) {
                    choseByAlpn = false; // the choice lived in the connections: the next request offers h2 again
                }
                replace = waiting.reconnect(open.size(), closing);
            }
            if (replace != null) {
                connect(replace);
            }
        }

        /** A TLS connection on which ALPN chose http/1.1, to carry {@code exchange} first: it counts as a connect under way until it opens. */
        Connection adopt(Http11Exchange exchange, EndPoint endPoint, WireConnection wire) {
            Http11Connection connection = newConnection(endPoint, wire);
            synchronized (this) {
                waiting.adopted();
                adopted.put(connection, exchange);
                choseByAlpn = true;
            }
            return connection;
        }

        @Override
        protected void connect(Http11Exchange exchange) {
            connect(exchange, null, this::newConnection);
        }

        private Http11Connection newConnection(EndPoint endPoint, WireConnection wire) {
            return new Http11Connection(endPoint, shared.connector().getExecutor(), shared.connector().getByteBufferPool(),
                    shared.registry(), wire, this, absoluteForm);
        }
    }
}
