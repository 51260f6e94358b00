package io.h2bench.client.direct;

import io.h2bench.client.connect.OriginConnector;
import io.h2bench.client.connect.ProxyHop;
import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.FailureMessages;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.exchange.ResponseWatchdog;
import io.h2bench.client.profile.ConnectionProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * A virtual user's own connections per origin, in one protocol ({@code DirectConnections} for
 * HTTP/1.1, {@code DirectHttp2Connections} for HTTP/2): the exchanges in flight, their response
 * watchdogs, the stop button, and closing all at once. A subclass names its exchange and makes
 * its origins, which open and use the connections.
 */
public abstract class AbstractDirectConnections<E extends DirectExchange> {

    /**
     * One origin's connections of this user ({@code C}) and the requests waiting for one: what both
     * protocols' origins keep the same way. Its lock guards the connections, {@code waiting} and the
     * subclass's own state together.
     */
    protected abstract class OriginConnections<C extends CallerReadConnection> {

        protected final OriginKey key;
        protected final ConnectionProfile profile;
        protected final ConnectQueue<E> waiting = new ConnectQueue<>();
        /** The connections the origin uses, which {@link #close} closes: each from its open until it closes (or, HTTP/2, takes no new stream). */
        protected final List<C> open = new ArrayList<>();
        /** The user's connections were closed: a connection that opens closes, and no connect starts again. */
        protected volatile boolean closing;

        protected OriginConnections(OriginKey key) {
            this.key = key;
            this.profile = key.profile();
        }

        /** Sends {@code exchange} on a connection of the origin, or queues it for one. */
        public abstract void send(E exchange);

        /** Opens a connection for {@code exchange}, the first waiting; if none opens, {@link #connectFailed}. */
        protected abstract void connect(E exchange);

        /** {@link #connect} through the user's connector, offering {@code alpn} in a TLS handshake (null: no ALPN). */
        protected final void connect(E exchange, List<String> alpn, OriginConnector.ConnectionMaker maker) {
            connector.connect(exchange, profile, alpn, maker, (failed, failure) -> connectFailed(exchange, failure));
        }

        /** A connect on behalf of {@code exchange} failed: it fails with it; the next waiting one tries again. */
        protected final void connectFailed(E exchange, Throwable failure) {
            E retry;
            synchronized (this) {
                retry = waiting.connectFailed(exchange, closing);
            }
            exchange.fail(failure);
            if (retry != null) {
                connect(retry);
            }
        }

        /** Ends {@code exchange}, which came to an origin closed meanwhile: nothing else will send it. */
        protected final void failClosed(E exchange) {
            exchange.fail(FailureMessages.stopped("the user's connections were closed"));
        }

        /** Closes every connection; the requests on them fail as their connection closes. */
        public final void close() {
            List<C> all;
            synchronized (this) {
                closing = true;
                all = new ArrayList<>(open);
            }
            all.forEach(C::close);
        }
    }

    protected final SharedClient shared;
    protected final OriginConnector connector;
    private final ResponseTimeouts responseTimeouts;
    private final BiFunction<ExchangeRequest, ExchangeRecorder, E> newExchange;
    private final String engine;
    private final Map<OriginKey, OriginConnections<?>> origins = new ConcurrentHashMap<>();
    private final Set<E> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * {@code newExchange}: the protocol's exchange for a request and the recorder of its events;
     * {@code engine}: the name its samples carry.
     */
    protected AbstractDirectConnections(SharedClient shared, ResponseTimeouts responseTimeouts,
                              BiFunction<ExchangeRequest, ExchangeRecorder, E> newExchange, String engine) {
        this.shared = shared;
        this.responseTimeouts = responseTimeouts;
        this.newExchange = newExchange;
        this.engine = engine;
        this.connector = new OriginConnector(shared, () -> closed, inFlight::size);
    }

    /** This user's routes through proxies are {@code other}'s too ({@link OriginConnector#shareProxyHops}). */
    protected final void shareProxyHops(AbstractDirectConnections<?> other) {
        connector.shareProxyHops(other.connector);
    }

    /** A new origin's connections of this user, to which its requests go from now on. */
    protected abstract OriginConnections<?> newOrigin(OriginKey key);

    /** The origin's connections of this user, or null before its first request. */
    protected final OriginConnections<?> existingOrigin(OriginKey key) {
        return origins.get(key);
    }

    /** The origin's connections of this user, made on its first request. */
    protected final OriginConnections<?> origin(OriginKey key) {
        return origins.computeIfAbsent(key, this::newOrigin);
    }

    /**
     * Sends {@code request}; its result names the engine that carried it in the end (ExchangeResult#engine).
     * Plain http through a proxy carries the proxy's credentials once it asked for them, and goes once
     * more with them when its answer is the proxy's 407 challenge: one sample, as HttpClient4 reports it
     * ({@link ExchangeResult#followedBy}). Through a CONNECT tunnel the tunnel answers the challenge.
     */
    public final CompletableFuture<ExchangeResult> send(OriginKey key, ExchangeRequest request) {
        ProxyHop hop = connector.hopFor(request.uri(), key.profile(), ProxyHop.tunnels(request.uri(), request.mode()));
        if (hop == null || hop.tunnels()) {
            return sendOnce(key, request, null);
        }
        String credentials = hop.authorization();
        return sendOnce(key, request, credentials).thenCompose(first ->
                hop.sendAgain(first.status(), first.responseHeader("Proxy-Authenticate"), credentials != null)
                        ? send(key, request).thenApply(first::followedBy)
                        : CompletableFuture.completedFuture(first));
    }

    /** {@code proxyAuthorization}: the proxy's credentials, for the HTTP/1.1 writer that talks to it; or null. */
    private CompletableFuture<ExchangeResult> sendOnce(OriginKey key, ExchangeRequest request, String proxyAuthorization) {
        ExchangeRecorder recorder = new ExchangeRecorder(request, request.uri(), false);
        E exchange = track(newExchange.apply(request, recorder));
        exchange.proxyAuthorization = proxyAuthorization;
        recorder.watchWith(ResponseWatchdog.watch(responseTimeouts, exchange::abort, request.responseTimeout().toMillis(),
                !request.connectTimeout().isZero()));
        CompletableFuture<ExchangeResult> result = exchange.result().thenApply(done -> done.sentBy(exchange.engine()));
        origin(key).send(exchange);
        return result;
    }

    /**
     * This protocol's exchange for {@code from}'s request, which another engine handed over
     * ({@link AlpnHandover}): on the same recorder, so the same sample; the stop button and the
     * response timeout, which hold {@code from}, reach it through {@code from}.
     */
    protected final E successorOf(DirectExchange from) {
        E exchange = track(newExchange.apply(from.request(), from.recorder()));
        exchange.proxyAuthorization = from.proxyAuthorization;
        from.handedTo(exchange);
        return exchange;
    }

    /**
     * As {@link #successorOf}, for a request the other engine has written and this one reads the
     * response of (the h2c Upgrade, {@link UpgradeHandover}): the sample names both engines, the
     * writer's first ({@code h1-own>h2-own}), and no body is left to wait for a 100 Continue.
     */
    protected final E continuationOf(DirectExchange from) {
        String both = from.engine() + ">" + engine;
        E exchange = successorOf(from);
        exchange.sentBy(both);
        exchange.continueWait = null;
        return exchange;
    }

    private E track(E exchange) {
        exchange.sentBy(engine);
        exchange.continueWait = ContinueWait.of(exchange.request(), shared.connector().getScheduler());
        inFlight.add(exchange);
        exchange.result().whenComplete((done, failure) -> inFlight.remove(exchange));
        return exchange;
    }

    /** Ends every exchange in flight here with {@code reason} (JMeter's stop button). */
    public final void abortAll(String reason) {
        for (E exchange : inFlight) {
            exchange.abort(FailureMessages.stopped(reason));
        }
    }

    /** Closes every connection: the next request opens new ones, as a new user would. */
    public final void reset() {
        List<OriginConnections<?>> all = new ArrayList<>(origins.values());
        origins.clear();
        connector.forgetProxyAnswers();
        all.forEach(OriginConnections::close);
    }

    public final void close() {
        closed = true;
        reset();
    }
}
