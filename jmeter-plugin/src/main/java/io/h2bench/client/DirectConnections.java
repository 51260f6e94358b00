package io.h2bench.client;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A virtual user's HTTP/1.1 connections that the sampler drives itself (issue 20): Jetty's
 * {@code ClientConnector} opens them (with the shared client's TLS, source address, DNS, cps and
 * wire counting), Jetty's HTTP/1.1 codec carries the requests ({@link Http11Connection}), and none
 * of {@code HttpClient}'s request machinery runs. Up to the request's connections per origin, as a
 * browser opens; more requests wait here, in order, for the first connection free.
 * <p>
 * Requests through a proxy, requests the client itself redirects and requests that expect a
 * 100 Continue stay with {@code HttpClient}, whose handling of those this class does not repeat.
 */
final class DirectConnections {

    private final SharedClient shared;
    private final ResponseTimeouts responseTimeouts;
    private final Map<DirectSessions.Key, Origin> origins = new ConcurrentHashMap<>();
    private final Set<Http11Exchange> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    DirectConnections(SharedClient shared, ResponseTimeouts responseTimeouts) {
        this.shared = shared;
        this.responseTimeouts = responseTimeouts;
    }

    /** Whether this class carries {@code exchange} (else HttpClient does). */
    static boolean eligible(ExchangeRequest exchange, ConnectionProfile profile) {
        return exchange.mode() == ProtocolMode.HTTP_1_1 && !exchange.followRedirects()
                && profile.proxyFor(exchange.uri().getHost()) == null
                && exchange.headers().stream().noneMatch(field -> field.name().equalsIgnoreCase("Expect"));
    }

    CompletableFuture<ExchangeResult> send(DirectSessions.Key key, ExchangeRequest request, ConnectionProfile profile) {
        ExchangeRecorder recorder = new ExchangeRecorder(request, request.uri(), false, shared.registry());
        Http11Exchange exchange = new Http11Exchange(request, recorder);
        recorder.watchWith(ResponseWatchdog.watch(responseTimeouts, exchange::abort, request.responseTimeout().toMillis(),
                !request.connectTimeout().isZero()));
        inFlight.add(exchange);
        CompletableFuture<ExchangeResult> result = exchange.result().whenComplete((done, failure) -> inFlight.remove(exchange));
        origins.computeIfAbsent(key, ignored -> new Origin(profile)).send(exchange);
        return result;
    }

    /** Ends every exchange in flight here with {@code reason} (JMeter's stop button). */
    void abortAll(String reason) {
        for (Http11Exchange exchange : inFlight) {
            exchange.fail(StreamExchange.stopped(reason));
        }
    }

    /** Closes every connection: the next request opens new ones, as a new user would. */
    void reset() {
        List<Origin> all = new ArrayList<>(origins.values());
        origins.clear();
        all.forEach(Origin::close);
    }

    void close() {
        closed = true;
        reset();
    }

    /** One origin's connections of this user, free or busy, and the requests waiting for one. */
    private final class Origin implements Http11Connection.Owner {

        private final ConnectionProfile profile;
        private final ArrayDeque<Http11Connection> free = new ArrayDeque<>();
        private final List<Http11Connection> all = new ArrayList<>();
        private final ArrayDeque<Http11Exchange> waiting = new ArrayDeque<>();
        private int connecting;
        private boolean closing;

        Origin(ConnectionProfile profile) {
            this.profile = profile;
        }

        void send(Http11Exchange exchange) {
            Http11Connection connection;
            boolean connect = false;
            synchronized (this) {
                connection = free.pollFirst();
                if (connection == null) {
                    waiting.add(exchange);
                    if (all.size() + connecting < exchange.request().maxConnectionsPerOrigin()) {
                        connecting++;
                        connect = true;
                    }
                }
            }
            if (connection != null) {
                connection.send(exchange);
            } else if (connect) {
                connect(exchange);
            }
        }

        @Override
        public void opened(Http11Connection connection) {
            Http11Exchange next;
            synchronized (this) {
                connecting--;
                all.add(connection);
                next = nextWaiting();
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
                next = nextWaiting();
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
                if (!waiting.isEmpty() && !closing && all.size() + connecting < waiting.peek().request().maxConnectionsPerOrigin()) {
                    connecting++;
                    replace = waiting.peek();
                }
            }
            if (replace != null) {
                connect(replace);
            }
        }

        private Http11Exchange nextWaiting() {
            Http11Exchange next = waiting.poll();
            while (next != null && next.finished()) {
                next = waiting.poll();
            }
            return next;
        }

        /** A connect on behalf of {@code exchange} failed: it fails with it; the next waiting one tries again. */
        private void connectFailed(Http11Exchange exchange, Throwable failure) {
            Http11Exchange retry = null;
            synchronized (this) {
                connecting--;
                waiting.remove(exchange);
                Http11Exchange next = waiting.peek();
                if (next != null && !closing) {
                    connecting++;
                    retry = next;
                }
            }
            exchange.fail(failure);
            if (retry != null) {
                connect(retry);
            }
        }

        void close() {
            List<Http11Connection> open;
            synchronized (this) {
                closing = true;
                open = new ArrayList<>(all);
            }
            open.forEach(Http11Connection::close);
        }

        /** Resolves the origin's host as the profile says and opens a connection for {@code exchange}. */
        private void connect(Http11Exchange exchange) {
            URI uri = exchange.request().uri();
            boolean secure = "https".equalsIgnoreCase(uri.getScheme());
            int port = uri.getPort() > 0 ? uri.getPort() : secure ? 443 : 80;
            Map<String, Object> context = new HashMap<>();
            // Jetty adds the client's connection listeners (the wire registry's TLS handshake times) from here.
            context.put(ClientConnector.HTTP_CLIENT_CONTEXT_KEY, shared.httpClient());
            context.put(Transport.class.getName(), Transport.TCP_IP);
            context.put(ProfileRouting.PROFILE_CONTEXT_KEY, profile);
            ClientConnector connector = shared.connector();
            ConnectAttempt attempt = new ConnectAttempt(exchange, connector, context);
            ClientConnectionFactory http11 = (endPoint, ignored) -> newConnection(endPoint, attempt);
            // The TLS engine takes its peer from the resolved address, and its certificate from the profile (ProfileTls).
            context.put(ClientConnectionFactory.CONTEXT_KEY,
                    secure ? connector.newSslClientConnectionFactory(null, http11) : http11);
            shared.routing().resolve(uri.getHost(), port, context, Promise.from(attempt::start, failure -> connectFailed(exchange, failure)));
        }

        private Connection newConnection(EndPoint endPoint, ConnectAttempt attempt) {
            attempt.connected = true;
            WireConnection wire = shared.registry().find(endPoint.getLocalSocketAddress());
            return new Http11Connection(endPoint, shared.connector().getExecutor(), shared.connector().getByteBufferPool(), wire, this);
        }

        /** Tries each resolved address in turn, as Jetty's client does, within the exchange's connect timeout. */
        private final class ConnectAttempt implements Promise<Connection> {

            private final Http11Exchange exchange;
            private final ClientConnector connector;
            private final Map<String, Object> context;
            private List<InetSocketAddress> addresses = List.of();
            private int next;
            /** TCP connected and the connection made: from then on its own events end the exchange. */
            private volatile boolean connected;

            ConnectAttempt(Http11Exchange exchange, ClientConnector connector, Map<String, Object> context) {
                this.exchange = exchange;
                this.connector = connector;
                this.context = context;
                context.put(ClientConnector.CONNECTION_PROMISE_CONTEXT_KEY, this);
            }

            void start(List<InetSocketAddress> resolved) {
                addresses = resolved;
                armConnectTimer(exchange);
                tryNext(null);
            }

            private void tryNext(Throwable previous) {
                if (next >= addresses.size() || closed) {
                    connectFailed(exchange, previous != null ? previous : new UnknownHostException(exchange.request().uri().getHost()));
                    return;
                }
                connector.connect(addresses.get(next++), context);
            }

            @Override
            public void succeeded(Connection connection) {
                // TCP connected; the connection reports itself open (Origin.opened).
            }

            @Override
            public void failed(Throwable failure) {
                if (connected) {
                    return; // a TLS handshake that failed: the connection's write and close fail the exchange
                }
                if (exchange.finished()) {
                    connectFailed(exchange, failure);
                } else {
                    tryNext(failure);
                }
            }
        }
    }

    /**
     * The connect timeout as {@link JettyEngine} applies it (JMeter's HttpClient4's): the TCP connect
     * within it, then each silence of the TLS handshake; an exchange still waiting for a connection
     * while others of this user are in flight is queued, not connecting, and its timer is re-armed.
     */
    private void armConnectTimer(Http11Exchange exchange) {
        long millis = exchange.request().connectTimeout().toMillis();
        if (millis <= 0) {
            return;
        }
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(millis);
        Scheduler scheduler = shared.httpClient().getScheduler();
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
                } else if (heard == 0 && !exchange.assigned() && inFlight.size() > 1) {
                    scheduler.schedule(this, millis, TimeUnit.MILLISECONDS);
                } else {
                    exchange.fail(new FailureMessages.ConnectTimeoutException(millis, heard != 0));
                }
            }
        };
        Scheduler.Task task = scheduler.schedule(check, millis, TimeUnit.MILLISECONDS);
        exchange.result().whenComplete((done, failure) -> task.cancel());
    }
}
