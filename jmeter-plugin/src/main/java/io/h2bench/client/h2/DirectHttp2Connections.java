package io.h2bench.client.h2;

import io.h2bench.client.connect.OriginConnector;
import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.direct.AbstractDirectConnections;
import io.h2bench.client.direct.AlpnHandover;
import io.h2bench.client.direct.DirectExchange;
import io.h2bench.client.direct.OriginKey;
import io.h2bench.client.direct.UpgradeHandover;
import io.h2bench.client.exchange.NoH2OverAlpnException;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.wire.WireConnection;
import java.net.URI;
import java.util.List;
import java.util.concurrent.Executor;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;

/**
 * A virtual user's HTTP/2 connections that the sampler drives itself (issue 20): h2c with prior
 * knowledge, and h2 over TLS, the HTTP/2 counterpart of {@code h1.DirectConnections}: {@link OriginConnector}
 * opens them as it opens the HTTP/1.1 ones, {@link Http2FrameConnection} carries the requests on
 * Jetty's frame codec, with no {@code HTTP2Session}. One connection
 * per origin, as a browser keeps; requests wait here while it opens, and on it for a stream slot.
 * A connection that takes no new stream (GOAWAY, a refused stream, closed) is forgotten, and what
 * waited on it goes to the next one.
 * <p>
 * Over TLS a new connection offers {@code h2, http/1.1} by ALPN, as Jetty's client and browsers do.
 * When the server chooses http/1.1 (or nothing), a request that allows the fall-back (a browser's
 * choice, the sampler's default for https) goes on over HTTP/1.1 on that same socket: it and the
 * ones that waited for it are handed to {@code h1.DirectConnections} ({@link AlpnHandover}), which
 * carries the origin's next requests while the choice holds; one that asked for HTTP/2 explicitly fails
 * with what the server chose. Every preset's SETTINGS and windows are announced here, Jetty's own
 * ({@link BrowserPreset#JETTY}) as the browsers'; a request that expects a 100 Continue sends its
 * DATA after the server's 100 or HttpClient4's wait ({@code ContinueWait}). Through a proxy, h2 goes
 * in a {@code CONNECT} tunnel ({@code OriginConnector}), ALPN and all as without one; a redirected
 * request's hops come here.
 * <p>
 * An h2c Upgrade request ({@link ProtocolMode#H2C_UPGRADE}) goes as a stream on the origin's
 * connection while one lives, as any other. With none, the connect is an upgrade: the request goes to
 * {@code h1.DirectConnections}, which writes it over HTTP/1.1 with {@code Upgrade: h2c} on a connection
 * of its own, new or kept alive, and the origin's next requests wait here as for any connect. On the
 * server's 101 the socket comes back ({@link UpgradeHandover}) and the response is read as stream 1.
 * A server that answers over HTTP/1.1 instead has given the request its response there, and the
 * connection stays HTTP/1.1: the next waiting request asks again, as curl's {@code --http2} asks on
 * every HTTP/1.1 request, on that connection if it was kept alive. Through a clear-text proxy the
 * Upgrade goes in an absolute-form request to the proxy, which (squid, as RFC 9110 7.6.1 has it)
 * drops the hop-by-hop {@code Upgrade}: the origin answers over HTTP/1.1.
 */
public final class DirectHttp2Connections extends AbstractDirectConnections<Http2Exchange> implements UpgradeHandover {

    /** The name its samples carry (ExchangeResult#engine): the sampler's own HTTP/2 on Jetty's frame codec. */
    public static final String ENGINE = "h2-own";

    /** What Jetty's client and browsers offer, in this order: the server's choice decides the engine. */
    private static final List<String> ALPN = List.of("h2", "http/1.1");

    /**
     * Where a TLS connection goes when ALPN chose http/1.1 for requests that allow it, and the h2c
     * Upgrade's request to be written; null: nowhere, they fail or connect by prior knowledge.
     */
    private volatile AlpnHandover http11;

    public DirectHttp2Connections(SharedClient shared, ResponseTimeouts responseTimeouts) {
        super(shared, responseTimeouts, Http2Exchange::new, ENGINE);
    }

    /** Lets {@code handover} (the user's own HTTP/1.1) carry on the connections on which ALPN chose http/1.1. */
    public void fallBackTo(AlpnHandover handover) {
        http11 = handover;
        if (handover instanceof AbstractDirectConnections<?> http11Connections) {
            // The origin's route through a proxy is one, whichever protocol ALPN chooses in its tunnel.
            shareProxyHops(http11Connections);
        }
    }

    @Override
    public Connection adopt(OriginKey key, EndPoint endPoint, WireConnection wire, DirectExchange from) {
        return ((Origin) origin(key)).upgraded(continuationOf(from), endPoint, wire);
    }

    @Override
    protected OriginConnections<?> newOrigin(OriginKey key) {
        return new Origin(key);
    }

    /** One origin's connection of this user, and the requests waiting while it opens. */
    private final class Origin extends OriginConnections<Http2FrameConnection> implements Http2FrameConnection.Owner {

        private Http2FrameConnection current;
        /** The request whose h2c Upgrade is under way on an HTTP/1.1 connection: the origin's connect; or null. */
        private Http2Exchange upgrading;

        Origin(OriginKey key) {
            super(key);
        }

        @Override
        public void send(Http2Exchange exchange) {
            while (true) {
                Http2FrameConnection connection;
                boolean connect = false;
                synchronized (this) {
                    connection = current;
                    if (closing) {
                        // Handed back by a connection that closed with the user's: nothing else will send it.
                        connection = null;
                    } else if (connection == null) {
                        // One connection per origin: the current one is gone, and no other counts.
                        connect = waiting.add(exchange, 0, 1);
                    }
                }
                if (closing) {
                    failClosed(exchange);
                    return;
                }
                if (connection == null) {
                    if (connect) {
                        connect(exchange);
                    } else {
                        // Behind a connect for another request, which may never finish (a silent TLS peer).
                        connector.armConnectTimer(exchange);
                    }
                    return;
                }
                if (connection.send(exchange)) {
                    return;
                }
                forget(connection); // retired under us: the next one takes it
            }
        }

        @Override
        public void opened(Http2FrameConnection connection) {
            List<Http2Exchange> ready;
            synchronized (this) {
                waiting.connected();
                open.add(connection);
                if (!closing) {
                    current = connection;
                }
                ready = waiting.pollAll();
            }
            if (closing) {
                connection.close();
                ready.forEach(this::failClosed);
                return;
            }
            ready.forEach(this::send);
        }

        @Override
        public void retired(Http2FrameConnection connection, List<Http2Exchange> unsent) {
            forget(connection);
            unsent.forEach(this::send);
        }

        private synchronized void forget(Http2FrameConnection connection) {
            open.remove(connection);
            if (current == connection) {
                current = null;
            }
        }

        /**
         * ALPN chose http/1.1 for {@code exchange}, which allows it: the socket becomes the HTTP/1.1
         * engine's connection carrying it, and the requests that waited here go there too, but for
         * those that asked for HTTP/2 explicitly, which connect again (and fail with what the server chose).
         */
        private Connection fellBack(Http2Exchange exchange, EndPoint endPoint, WireConnection wire, AlpnHandover fallback) {
            // First: from now on the origin's requests go to the HTTP/1.1 engine, and none comes here to wait.
            Connection connection = fallback.adopt(key, endPoint, wire, exchange);
            List<Http2Exchange> others;
            synchronized (this) {
                waiting.connected();
                others = waiting.pollAll();
            }
            others.remove(exchange);
            for (Http2Exchange other : others) {
                if (other.result().isDone()) {
                    continue; // ended while it waited (its timeout, the stop button)
                }
                if (other.request().alpnFallback()) {
                    fallback.take(key, other);
                } else {
                    send(other);
                }
            }
            return connection;
        }

        /** The server switched the connection that asked for the upgrade for {@code exchange}: stream 1 is its response. */
        private Connection upgraded(Http2Exchange exchange, EndPoint endPoint, WireConnection wire) {
            synchronized (this) {
                if (upgrading == null) {
                    waiting.adopted(); // no connect counted for it (the user reset meanwhile): it counts until it opens
                }
                upgrading = null;
            }
            return connector.listened(newConnection(endPoint, wire, exchange));
        }

        /**
         * The connect for an {@code H2C_UPGRADE} request: the HTTP/1.1 engine writes it with {@code
         * Upgrade: h2c}. If it ends without a 101 (answered over HTTP/1.1, or failed) the next waiting
         * request asks again; with one, {@link #opened} sends them as streams.
         */
        private void upgrade(Http2Exchange exchange, AlpnHandover writer) {
            synchronized (this) {
                upgrading = exchange;
            }
            exchange.result().whenComplete((done, failure) -> {
                Http2Exchange next;
                synchronized (this) {
                    if (upgrading != exchange) {
                        return; // switched (upgraded), or the origin moved on
                    }
                    upgrading = null;
                    next = waiting.connectFailed(exchange, closing);
                }
                if (next != null) {
                    connect(next);
                }
            });
            writer.take(key, exchange);
        }

        @Override
        protected void connect(Http2Exchange exchange) {
            AlpnHandover fallback = http11;
            if (exchange.request().mode() == ProtocolMode.H2C_UPGRADE && fallback != null) {
                upgrade(exchange, fallback);
                return;
            }
            URI uri = exchange.request().uri();
            boolean secure = "https".equalsIgnoreCase(uri.getScheme());
            Executor executor = shared.connector().getExecutor();
            connect(exchange, secure ? ALPN : null, (endPoint, wire) -> {
                String negotiated = OriginConnector.negotiated(endPoint);
                if (secure && !"h2".equals(negotiated) && exchange.request().alpnFallback() && fallback != null) {
                    return fellBack(exchange, endPoint, wire, fallback);
                }
                if (secure && !"h2".equals(negotiated)) {
                    String origin = uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
                    return new NotHttp2(endPoint, executor, () -> connectFailed(exchange, new NoH2OverAlpnException(origin, negotiated)));
                }
                return newConnection(endPoint, wire, null);
            });
        }

        /** {@code upgraded}: the exchange whose response comes on stream 1 after an h2c Upgrade, or null. */
        private Http2FrameConnection newConnection(EndPoint endPoint, WireConnection wire, Http2Exchange upgraded) {
            return new Http2FrameConnection(endPoint, shared.connector().getExecutor(), shared.connector().getByteBufferPool(),
                    shared.registry(), wire, profile.preset().http2(), this, upgraded);
        }
    }

    /** A TLS connection on which ALPN chose another protocol than h2: it carries nothing and closes. */
    private static final class NotHttp2 extends AbstractConnection {

        private final Runnable refuse;

        NotHttp2(EndPoint endPoint, Executor executor, Runnable refuse) {
            super(endPoint, executor);
            this.refuse = refuse;
        }

        @Override
        public void onOpen() {
            super.onOpen();
            refuse.run();
            close();
        }

        @Override
        public void onFillable() {
        }
    }
}
