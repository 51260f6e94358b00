package io.h2bench.client.httpclient;

import io.h2bench.client.connect.AnnouncedSettings;
import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.connect.UserTag;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.FailureMessages;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.exchange.NoH2OverAlpnException;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.exchange.ResponseWatchdog;
import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.client.wire.WireConnection;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
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
 * A virtual user's requests on Jetty's {@code HttpClient}, the one TCP engine that is not the
 * sampler's own, for the two cases the own engines do not carry: a proxy reached over TLS (proxy
 * scheme {@code https}: the own connector makes no TLS to a proxy, only through its tunnel), and
 * the h2c Upgrade request through a proxy (the own HTTP/1.1 asks for the Upgrade only of an origin
 * it reaches directly). Both are rare in a benchmark, and {@code HttpClient} carries them whole: the
 * proxy's TLS, its {@code CONNECT}, ALPN in the tunnel, the Upgrade and the HTTP/2 session that
 * follows, every later request of the user to that origin. Its connections are made by the shared
 * client's connector ({@code connect.SharedClient}), so they are counted, timed and shaped (presets'
 * SETTINGS, {@code cps}, client certificate) as the own engines' are, and its events feed the same
 * {@link ExchangeRecorder}. Through a proxy reached over TLS the socket's TLS handshake, and so the
 * sample's TLS time and ALPN, are those with the proxy: the origin's, inside the tunnel, is not seen.
 * <p>
 * The user's connections are its own: each request carries a {@link UserTag}, which gives the user
 * a destination (a pool) per origin and profile, HTTP/2: one connection, HTTP/1.1: up to the
 * request's maxConnectionsPerOrigin. {@link #reset()} drops them. Redirects are not followed here.
 */
public final class HttpClientEngine {

    /** The name its samples carry (ExchangeResult#engine). */
    public static final String ENGINE = "jetty-httpclient";

    private static final AtomicLong USERS = new AtomicLong();

    private static final Scheduler.Task NO_TIMER = () -> false;

    private final SharedClient shared;
    private final ResponseTimeouts responseTimeouts;
    private final Set<Request> inFlight = ConcurrentHashMap.newKeySet();
    private volatile long user = USERS.incrementAndGet();
    /** The tag of the last request, reused while it fits: Jetty then finds the destination by a cached hash. */
    private volatile UserTag lastTag;

    public HttpClientEngine(SharedClient shared, ResponseTimeouts responseTimeouts) {
        this.shared = shared;
        this.responseTimeouts = responseTimeouts;
    }

    /** Sends through Jetty's {@code HttpClient}, which opens connections as needed. */
    public CompletableFuture<ExchangeResult> send(ExchangeRequest exchange, ConnectionProfile profile) {
        HttpClient client = shared.httpClient();
        URI uri = exchange.uri();
        shared.routing().register(profile);
        ExchangeRecorder recorder = new ExchangeRecorder(exchange, uri, false, shared.registry());
        Request request = client.newRequest(uri)
                .method(exchange.method())
                .tag(tagFor(exchange.mode().multiplexed() ? 1 : exchange.maxConnectionsPerOrigin(), profile))
                .followRedirects(false); // UserConnections follows them, hop by hop (Redirects)
        boolean upgrading = chooseVersion(request, exchange.mode(), uri);
        copyHeaders(request, exchange, upgrading ? AnnouncedSettings.upgradeHeader(profile.preset().http2()) : null);
        if (exchange.body().length > 0) {
            request.body(new BytesRequestContent(exchange.body()));
        }
        if (!exchange.responseTimeout().isZero()) {
            request.idleTimeout(exchange.responseTimeout().toMillis(), TimeUnit.MILLISECONDS);
        }
        request.onRequestBegin(recorder::onAssigned);
        if (exchange.mode() == ProtocolMode.HTTP_2 && !exchange.alpnFallback() && "https".equalsIgnoreCase(uri.getScheme())) {
            request.onRequestBegin(begun -> refuseHttp11(begun, uri));
        }
        request.onRequestSuccess(recorder::onRequestDone);
        request.onRequestFailure((failed, cause) -> recorder.onRequestDone(failed));
        request.onPush((main, pushed) -> exchange.acceptPush() ? recorder.newPush(pushed.getURI()) : null);
        recorder.watchWith(ResponseWatchdog.watch(responseTimeouts, request, exchange.responseTimeout().toMillis(),
                !exchange.connectTimeout().isZero()));
        inFlight.add(request);
        CompletableFuture<ExchangeResult> result = recorder.result().whenComplete((done, ignored) -> inFlight.remove(request));
        request.send(recorder);
        // On a reused connection Jetty has assigned the exchange within send(): no timer is needed.
        if (!recorder.hasConnection() && !result.isDone()) {
            Scheduler.Task connectTimer = scheduleConnectTimeout(client, request, recorder, exchange.connectTimeout().toMillis());
            result.whenComplete((done, ignored) -> connectTimer.cancel());
        }
        return result.thenApply(done -> done.sentBy(ENGINE));
    }

    /** Ends every exchange in flight here with {@code reason} (JMeter's stop button). */
    public void abortAll(String reason) {
        for (Request request : inFlight) {
            request.abort(FailureMessages.stopped(reason));
        }
    }

    /** Closes the user's connections: its destinations leave the client, and the next request is a new user's. */
    public void reset() {
        long previous = user;
        user = USERS.incrementAndGet();
        HttpClient client = shared.httpClient();
        for (Destination destination : client.getDestinations()) {
            if (destination.getOrigin().getTag() instanceof UserTag tag && tag.user() == previous) {
                client.removeDestination(destination);
            }
        }
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
    private void refuseHttp11(Request request, URI uri) {
        org.eclipse.jetty.client.Connection connection = request.getConnection();
        if (connection != null && !(connection instanceof HttpConnectionOverHTTP2)) {
            WireConnection wire = shared.registry().find(connection);
            String origin = uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
            request.abort(new NoH2OverAlpnException(origin, wire == null ? null : wire.alpn()));
        }
    }

    /**
     * Sets the HTTP version Jetty uses. Returns true when this request asks for an h2c upgrade.
     * Over https HTTP_2 leaves the choice to ALPN (h2 offered first, checked at request begin); over
     * http it means h2c. An H2C_UPGRADE request here always asks for the upgrade, as curl's
     * {@code --http2} does on every new connection; once a connection is upgraded, Jetty sends the
     * destination's next requests as streams on it. Sending it as HTTP/2 would let Jetty open a new
     * connection with the preface, which a server offering h2c only by Upgrade (Apache httpd's
     * {@code H2Direct off}) answers over HTTP/1.1.
     */
    private static boolean chooseVersion(Request request, ProtocolMode mode, URI uri) {
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

    /**
     * @param http2Settings the h2c Upgrade's HTTP2-Settings value (RFC 7540 section 3.2.1: the SETTINGS
     *                      the upgraded connection then sends, so that the server answers stream 1 under
     *                      the user's windows and limits), or null when the request asks for no upgrade
     */
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
}
