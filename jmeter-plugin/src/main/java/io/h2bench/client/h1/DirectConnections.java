package io.h2bench.client.h1;

import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.direct.AbstractDirectConnections;
import io.h2bench.client.direct.ConnectQueue;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.profile.ConnectionProfile;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A virtual user's HTTP/1.1 connections that the sampler drives itself (issue 20): Jetty's
 * {@code ClientConnector} opens them (with the shared client's TLS, source address, DNS, cps and
 * wire counting), Jetty's HTTP/1.1 codec carries the requests ({@link Http11Connection}), and none
 * of {@code HttpClient}'s request machinery runs. Up to the request's connections per origin, as a
 * browser opens; more requests wait here, in order, for the first connection free.
 * <p>
 * Requests through a proxy and requests that expect a 100 Continue stay with {@code HttpClient},
 * whose handling of those this class does not repeat; a redirected request's hops come here.
 */
public final class DirectConnections extends AbstractDirectConnections<Http11Exchange> {

    /** The name its samples carry (ExchangeResult#engine): the sampler's own HTTP/1.1. */
    public static final String ENGINE = "h1-own";

    public DirectConnections(SharedClient shared, ResponseTimeouts responseTimeouts) {
        super(shared, responseTimeouts, Http11Exchange::new);
    }

    /** Whether this class carries {@code exchange} (else HttpClient does). */
    public static boolean eligible(ExchangeRequest exchange, ConnectionProfile profile) {
        return exchange.mode() == ProtocolMode.HTTP_1_1 && plainRequest(exchange, profile);
    }

    @Override
    protected OriginConnections<Http11Exchange> newOrigin(ConnectionProfile profile) {
        return new Origin(profile);
    }

    /** One origin's connections of this user, free or busy, and the requests waiting for one. */
    private final class Origin implements OriginConnections<Http11Exchange>, Http11Connection.Owner {

        private final ConnectionProfile profile;
        private final ArrayDeque<Http11Connection> free = new ArrayDeque<>();
        private final List<Http11Connection> all = new ArrayList<>();
        private final ConnectQueue<Http11Exchange> waiting = new ConnectQueue<>();
        private boolean closing;

        Origin(ConnectionProfile profile) {
            this.profile = profile;
        }

        @Override
        public void send(Http11Exchange exchange) {
            while (true) {
                Http11Connection connection;
                boolean connect = false;
                synchronized (this) {
                    connection = free.pollFirst();
                    if (connection == null) {
                        connect = waiting.add(exchange, all.size(), exchange.request().maxConnectionsPerOrigin());
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
            synchronized (this) {
                waiting.connected();
                all.add(connection);
                next = waiting.poll();
                if (next == null || closing) {
                    free.add(connection);
                }
            }
            if (closing) {
                connection.close();
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
        public void closed(Http11Connection connection, Throwable cause) {
            Http11Exchange replace = null;
            synchronized (this) {
                free.remove(connection);
                if (!all.remove(connection)) {
                    return;
                }
                replace = waiting.reconnect(all.size(), closing);
            }
            if (replace != null) {
                connect(replace);
            }
        }

        /** A connect on behalf of {@code exchange} failed: it fails with it; the next waiting one tries again. */
        private void connectFailed(Http11Exchange exchange, Throwable failure) {
            Http11Exchange retry;
            synchronized (this) {
                retry = waiting.connectFailed(exchange, closing);
            }
            exchange.fail(failure);
            if (retry != null) {
                connect(retry);
            }
        }

        @Override
        public void close() {
            List<Http11Connection> open;
            synchronized (this) {
                closing = true;
                open = new ArrayList<>(all);
            }
            open.forEach(Http11Connection::close);
        }

        private void connect(Http11Exchange exchange) {
            connector.connect(exchange, profile,
                    (endPoint, wire) -> new Http11Connection(endPoint, shared.connector().getExecutor(),
                            shared.connector().getByteBufferPool(), shared.registry(), wire, this),
                    (failed, failure) -> connectFailed((Http11Exchange) failed, failure));
        }
    }
}
