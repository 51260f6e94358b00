package io.h2bench.client;

import io.h2bench.client.connect.AnnouncedSettings;
import io.h2bench.client.connect.EarlyRequestHttp2;
import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.connect.UserTag;
import io.h2bench.client.direct.OriginKey;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.FailureMessages;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.exchange.NoH2OverAlpnException;
import io.h2bench.client.exchange.ProtocolEngine;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.exchange.ResponseWatchdog;
import io.h2bench.client.h1.DirectConnections;
import io.h2bench.client.h2.DirectHttp2Connections;
import io.h2bench.client.h2.DirectSessions;
import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.client.wire.WireConnection;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.Destination;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.transport.internal.HttpConnectionOverHTTP2;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A virtual user's HTTP/1.1 and HTTP/2 connections on Jetty's client: its own pool per origin inside
 * the {@link SharedClient} (HTTP/2: one connection per origin; HTTP/1.1: up to the request's
 * maxConnectionsPerOrigin), reused across its requests until {@link #reset()} or {@link #close()}.
 * Not thread-safe for reset/close; requests may be sent concurrently (a page load's resources).
 * <p>
 * Each request takes one of four paths, chosen in {@link #send} and named in its result
 * ({@link ExchangeResult#engine()}): the sampler's own HTTP/1.1 ({@link DirectConnections},
 * {@value DirectConnections#ENGINE}), its own HTTP/2 ({@link DirectHttp2Connections},
 * {@value DirectHttp2Connections#ENGINE}), streams on Jetty's HTTP/2 sessions ({@link DirectSessions},
 * {@value DirectSessions#ENGINE}) and Jetty's {@code HttpClient} for the rest ({@value #CLIENT_ENGINE}).
 * An https request whose HTTP version the scheme chose (h2, or http/1.1 if the server's ALPN picks
 * it) goes to the own HTTP/2, which hands the handshake's socket to the own HTTP/1.1 when ALPN chose
 * http/1.1, and the origin's next ones straight to the own HTTP/1.1 while that choice holds. An h2c
 * Upgrade request goes to the own HTTP/2, which has the own HTTP/1.1 ask for the upgrade when no
 * upgraded connection lives, and takes the socket on at the server's 101.
 * None of them follows redirects: {@link UserConnections} sends each hop here as a request of its own.
 */
final class JettyEngine implements ProtocolEngine {

    private static final AtomicLong USERS = new AtomicLong();

    private static final Scheduler.Task NO_TIMER = () -> false;

    /**
     * The name samples sent through Jetty's {@code HttpClient} carry (ExchangeResult#engine). It takes
     * what the other three paths leave, and only that: requests through a proxy reached over TLS (h2
     * through its CONNECT until the session exists for {@link DirectSessions}), and the h2c Upgrade
     * through a proxy. A clear-text proxy is no reason: the own engines go through it as HttpClient4
     * does ({@code connect.ProxyHop}). Nor is the h2c Upgrade without a proxy: the own HTTP/1.1 asks
     * for it and the own HTTP/2 goes on on the socket ({@code UpgradeHandover}). The JETTY preset is no reason: it writes out {@code HTTP2Client}'s SETTINGS
     * and windows, which the own HTTP/2 announces. Nor is a 100 Continue expected: the own engines wait
     * for it as HttpClient4 does ({@code ContinueWait}). h2 that may fall back to
     * HTTP/1.1 by ALPN is no reason any more: the own engines carry it ({@link DirectHttp2Connections}
     * hands the socket to {@link DirectConnections} when ALPN chose http/1.1). Nor are redirects:
     * each hop is a request of its own ({@link Redirects}), sent by whichever path would send it alone.
     */
    static final String CLIENT_ENGINE = "jetty-httpclient";

    private final SharedClient shared;
    private final ResponseTimeouts responseTimeouts;
    private final Set<Request> inFlight = ConcurrentHashMap.newKeySet();
    private final DirectSessions sessions;
    private final DirectConnections connections;
    private final DirectHttp2Connections http2Connections;
    private volatile long user = USERS.incrementAndGet();
    /** The tag of the last request, reused while it fits: Jetty then finds the destination by a cached hash. */
    private volatile UserTag lastTag;
    private boolean closed;

    private JettyEngine(SharedClient shared) {
        this.shared = shared;
        this.responseTimeouts = new ResponseTimeouts(shared.httpClient().getScheduler());
        this.sessions = new DirectSessions(shared.registry(), responseTimeouts);
        this.connections = new DirectConnections(shared, responseTimeouts);
        this.http2Connections = new DirectHttp2Connections(shared, responseTimeouts);
        http2Connections.fallBackTo(connections);
        connections.upgradeTo(http2Connections);
    }

    /** A new virtual user on the shared client (which starts if it is not running). */
    static JettyEngine open() {
        return new JettyEngine(SharedClient.acquire());
    }

    @Override
    public boolean usable() {
        return !closed && shared.live();
    }

    /** This user's response timeouts, one timer for every engine's exchanges (HTTP/3's too). */
    ResponseTimeouts responseTimeouts() {
        return responseTimeouts;
    }

    @Override
    public CompletableFuture<ExchangeResult> send(ExchangeRequest exchange, ConnectionProfile profile) {
        return sendOnce(exchange, profile);
    }

    private CompletableFuture<ExchangeResult> sendOnce(ExchangeRequest exchange, ConnectionProfile profile) {
        if (closed) {
            throw new IllegalStateException("This user's connections are closed");
        }
        refuseCleartextHttp2ThroughProxy(exchange, profile);
        if (DirectConnections.eligible(exchange, profile)) {
            return connections.send(new OriginKey(origin(exchange.uri()), profile), exchange);
        }
        if (DirectHttp2Connections.eligible(exchange, profile)) {
            OriginKey key = new OriginKey(origin(exchange.uri()), profile);
            // ALPN chose http/1.1 for this origin on a connection that still lives: its requests go there, as HttpClient's would.
            if (exchange.alpnFallback() && connections.choseHttp11(key)) {
                return connections.send(key, exchange);
            }
            return http2Connections.send(key, exchange);
        }
        if (!DirectSessions.eligible(exchange)) {
            return named(sendViaClient(exchange, profile, null), CLIENT_ENGINE);
        }
        OriginKey key = new OriginKey(origin(exchange.uri()), profile);
        CompletableFuture<ExchangeResult> direct = sessions.trySend(key, exchange,
                again -> named(sendViaClient(again, profile, key), CLIENT_ENGINE));
        return direct != null ? named(direct, DirectSessions.ENGINE) : named(sendViaClient(exchange, profile, key), CLIENT_ENGINE);
    }

    /** The result says which path sent it; one handed over to another path keeps that one's name. */
    private static CompletableFuture<ExchangeResult> named(CompletableFuture<ExchangeResult> result, String engine) {
        return result.thenApply(done -> done.sentBy(engine));
    }

    /**
     * Sends through Jetty's {@code HttpClient}, which opens connections as needed; {@code key}: an
     * exchange {@link DirectSessions} may carry later on the same HTTP/2 session, or null.
     */
    private CompletableFuture<ExchangeResult> sendViaClient(ExchangeRequest exchange, ConnectionProfile profile,
                                                            OriginKey key) {
        HttpClient client = shared.httpClient();
        URI uri = exchange.uri();
        shared.routing().register(profile);
        String origin = origin(uri);
        ExchangeRecorder recorder = new ExchangeRecorder(exchange, uri, false, shared.registry());
        Request request = client.newRequest(uri)
                .method(exchange.method())
                .tag(tagFor(exchange.mode().multiplexed() ? 1 : exchange.maxConnectionsPerOrigin(), profile))
                .followRedirects(false); // UserConnections follows them, hop by hop (Redirects)
        boolean upgrading = chooseVersion(request, exchange.mode(), uri);
        copyHeaders(request, exchange, upgrading ? upgradeSettings(profile) : null);
        if (upgrading && key != null) {
            // Later requests go as streams on the upgraded connection while it lives (DirectSessions).
            request.attribute(EarlyRequestHttp2.UPGRADED,
                    (Consumer<org.eclipse.jetty.client.Connection>) upgraded -> sessions.connectionAssigned(key, upgraded));
        }
        if (exchange.body().length > 0) {
            request.body(new BytesRequestContent(exchange.body()));
        }
        if (!exchange.responseTimeout().isZero()) {
            request.idleTimeout(exchange.responseTimeout().toMillis(), TimeUnit.MILLISECONDS);
        }
        request.onRequestBegin(recorder::onAssigned);
        if (key != null) {
            request.onRequestBegin(begun -> sessions.connectionAssigned(key, begun.getConnection()));
        }
        if (exchange.mode() == ProtocolMode.HTTP_2 && !exchange.alpnFallback() && "https".equalsIgnoreCase(uri.getScheme())) {
            request.onRequestBegin(begun -> refuseHttp11(begun, origin));
        }
        request.onRequestSuccess(recorder::onRequestDone);
        request.onRequestFailure((failed, cause) -> recorder.onRequestDone(failed));
        request.onPush((main, pushed) -> exchange.acceptPush() ? recorder.newPush(pushed.getURI()) : null);
        recorder.watchWith(ResponseWatchdog.watch(responseTimeouts, request, exchange.responseTimeout().toMillis(),
                !exchange.connectTimeout().isZero()));
        inFlight.add(request);
        CompletableFuture<ExchangeResult> result = recorder.result().whenComplete((done, ignored) -> inFlight.remove(request));
        if (key != null) {
            sessions.viaClient(key, result);
        }
        request.send(recorder);
        // On a reused connection Jetty has assigned the exchange within send(): no timer is needed.
        if (!recorder.hasConnection() && !result.isDone()) {
            Scheduler.Task connectTimer = scheduleConnectTimeout(client, request, recorder, exchange.connectTimeout().toMillis());
            result.whenComplete((done, ignored) -> connectTimer.cancel());
        }
        return result;
    }

    private UserTag tagFor(int maxConnections, ConnectionProfile profile) {
        long current = user;
        UserTag last = lastTag;
        if (last != null && last.fits(current, maxConnections, profile)) {
            return last;
        }
        UserTag tag = new UserTag(current, maxConnections, profile);
        lastTag = tag;
        return tag;
    }

    /** HTTP_2 chosen explicitly: a connection on which ALPN settled for HTTP/1.1 gets no request written. */
    private void refuseHttp11(Request request, String origin) {
        org.eclipse.jetty.client.Connection connection = request.getConnection();
        if (connection != null && !(connection instanceof HttpConnectionOverHTTP2)) {
            WireConnection wire = shared.registry().find(connection);
            request.abort(new NoH2OverAlpnException(origin, wire == null ? null : wire.alpn()));
        }
    }

    @Override
    public void abortAll(String reason) {
        for (Request request : inFlight) {
            request.abort(FailureMessages.stopped(reason));
        }
        sessions.abortAll(reason);
        connections.abortAll(reason);
        http2Connections.abortAll(reason);
    }

    @Override
    public void reset() {
        long previous = user;
        user = USERS.incrementAndGet();
        sessions.reset();
        connections.reset();
        http2Connections.reset();
        HttpClient client = shared.httpClient();
        for (Destination destination : client.getDestinations()) {
            if (destination.getOrigin().getTag() instanceof UserTag tag && tag.user() == previous) {
                client.removeDestination(destination);
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        reset();
        closed = true;
        connections.close();
        http2Connections.close();
        responseTimeouts.destroy();
        shared.release();
    }

    /**
     * Sets the HTTP version Jetty uses. Returns true when this request asks for an h2c upgrade.
     * Over https HTTP_2 leaves the choice to ALPN (h2 offered first, checked at request begin); over
     * http it means h2c. An H2C_UPGRADE request here always asks for the upgrade, as curl's
     * {@code --http2} does on every new connection: one that can ride on a live upgraded connection
     * is sent as a stream on it ({@link DirectSessions}) and never comes here, and sending it here as
     * HTTP/2 would let Jetty open a new connection with the preface, which a server offering h2c
     * only by Upgrade (Apache httpd's {@code H2Direct off}) answers over HTTP/1.1.
     */
    private boolean chooseVersion(Request request, ProtocolMode mode, URI uri) {
        boolean secure = "https".equalsIgnoreCase(uri.getScheme());
        switch (mode) {
            case HTTP_1_1 -> request.version(HttpVersion.HTTP_1_1);
            case HTTP_2 -> {
                if (!secure) {
                    request.version(HttpVersion.HTTP_2);
                }
            }
            case H2C -> request.version(HttpVersion.HTTP_2);
            case HTTP_3, HTTP_3_ALT_SVC -> throw new IllegalArgumentException("HTTP/3 is not Jetty's here: " + mode);
            case H2C_UPGRADE -> {
                request.version(HttpVersion.HTTP_1_1);
                return true;
            }
        }
        return false;
    }

    /** @param http2Settings the h2c Upgrade's HTTP2-Settings value, or null when the request asks for no upgrade */
    private static void copyHeaders(Request request, ExchangeRequest exchange, String http2Settings) {
        request.headers(headers -> {
            for (HeaderField field : exchange.headers()) {
                if (!HeaderField.CONNECTION_HEADERS.contains(field.name().toLowerCase(Locale.ROOT))) {
                    headers.add(field.name(), field.value());
                }
            }
            if (http2Settings != null) {
                headers.put("Upgrade", "h2c");
                headers.put("HTTP2-Settings", http2Settings);
                headers.put("Connection", "Upgrade, HTTP2-Settings");
            }
        });
    }

    /**
     * RFC 7540 section 3.2.1: the SETTINGS the upgraded connection then sends after its preface, so
     * that the server answers stream 1 under the user's windows and limits from its first byte.
     */
    private String upgradeSettings(ConnectionProfile profile) {
        return AnnouncedSettings.upgradeHeader(profile.preset().http2());
    }

    /**
     * The connect timeout as JMeter's HttpClient4 applies it: the TCP connect must succeed within it,
     * and then each read of the TLS handshake (HttpClient4 sets the socket's read timeout to the
     * connect timeout for the handshake), so a handshake that keeps hearing from the server goes on
     * however long it takes in all, as 400 handshakes on a busy client do. Jetty's own connect
     * timeout is client-wide; this one is per request. A request still unassigned while others of
     * this user are in flight may be queued behind busy connections (a page's resources over
     * HTTP/1.1), not connecting: its timer is re-armed, not fired. Armed only for exchanges not on a
     * usable connection right after send, and cancelled when they complete, so that reused
     * connections cost the scheduler nothing (thousands a second).
     */
    private Scheduler.Task scheduleConnectTimeout(HttpClient client, Request request, ExchangeRecorder recorder, long millis) {
        if (millis <= 0) {
            return NO_TIMER;
        }
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(millis);
        Runnable check = new Runnable() {
            @Override
            public void run() {
                if (recorder.hasConnection() || recorder.result().isDone()) {
                    return;
                }
                long heard = handshakeHeardNanos(client, request, recorder);
                long silent = System.nanoTime() - heard;
                if (heard != 0 && silent < timeoutNanos) {
                    client.getScheduler().schedule(this, timeoutNanos - silent, TimeUnit.NANOSECONDS);
                    return;
                }
                if (heard == 0 && !recorder.isAssigned() && inFlight.size() > 1) {
                    client.getScheduler().schedule(this, millis, TimeUnit.MILLISECONDS);
                    return;
                }
                request.abort(new FailureMessages.ConnectTimeoutException(millis, heard != 0));
            }
        };
        return client.getScheduler().schedule(check, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * When the server was last heard from by a TLS handshake under way for this request: on its own
     * connection (HTTP/1.1 gets it before the handshake), else on one opened for its destination
     * (ALPN picks the protocol, and so the connection, only after the handshake); 0 if none.
     */
    private long handshakeHeardNanos(HttpClient client, Request request, ExchangeRecorder recorder) {
        WireConnection own = recorder.wire();
        if (own != null) {
            return own.handshakeHeardNanos();
        }
        return shared.registry().handshakeHeardNanos(client.resolveDestination(request).getOrigin());
    }

    /** A proxy speaks HTTP/1.1 to its clients: h2c with prior knowledge cannot go through it. */
    private static void refuseCleartextHttp2ThroughProxy(ExchangeRequest exchange, ConnectionProfile profile) {
        boolean cleartext = !"https".equalsIgnoreCase(exchange.uri().getScheme());
        boolean priorKnowledge = exchange.mode() == ProtocolMode.H2C || exchange.mode() == ProtocolMode.HTTP_2;
        if (cleartext && priorKnowledge && profile.proxyFor(exchange.uri().getHost()) != null) {
            throw new IllegalArgumentException("HTTP/2 over cleartext (h2c) cannot go through an HTTP proxy, which speaks "
                    + "HTTP/1.1 to its clients: use HTTP_1_1 or H2C_UPGRADE, or https (h2 through CONNECT)");
        }
    }

    private static String origin(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
    }
}
