package io.h2bench.client;

import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.direct.CallerReads;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.h3.Http3Engine;
import io.h2bench.client.h3.QuicTransport;
import io.h2bench.client.profile.ConnectionProfile;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.UnaryOperator;

/**
 * The connections of one virtual user, in whichever protocol each request asks for
 * ({@link ProtocolMode}): HTTP/1.1 and HTTP/2 on TCP ({@link TcpEngines}), HTTP/3 on
 * Netty's QUIC ({@link Http3Engine}, opened at the user's first HTTP/3 request). Each engine keeps
 * the user's connections per origin until {@link #reset()} or {@link #close()}. Not thread-safe for
 * reset/close; requests may be sent concurrently (a page load's resources).
 */
public final class UserConnections implements AutoCloseable {

    private final TcpEngines tcp;
    private volatile Http3Engine quic;
    /** Origins whose responses advertised h3 (HTTP_3_ALT_SVC), with the advertised UDP port. */
    private final Map<String, Integer> advertisedH3 = new ConcurrentHashMap<>();
    /** This user's thread reading its own responses while it waits for them. */
    private final CallerReads reads = new CallerReads();
    private boolean closed;

    private UserConnections(TcpEngines tcp) {
        this.tcp = tcp;
    }

    /** A new virtual user on the shared client (which starts if it is not running). */
    public static UserConnections open() {
        return new UserConnections(TcpEngines.open());
    }

    /**
     * Stops every protocol's shared machinery whatever its users: JMeter's test end, after which no
     * thread of the client may remain (the shared connector's, HTTP/3's event loops).
     */
    public static void stopAll() {
        SharedClient.stopAll();
        QuicTransport.stopAll();
    }

    /** False once closed, or once the shared client was stopped under it (JMeter's test end). */
    public boolean usable() {
        Http3Engine h3 = quic;
        return !closed && tcp.usable() && (h3 == null || h3.usable());
    }

    /** Sends and waits: every outcome, failures included, comes back as a result. */
    public ExchangeResult send(ExchangeRequest exchange) throws InterruptedException {
        return send(exchange, ConnectionProfile.DIRECT);
    }

    /** Sends on connections made as {@code profile} says, and waits. */
    public ExchangeResult send(ExchangeRequest exchange, ConnectionProfile profile) throws InterruptedException {
        try {
            return reads.await(exchange, () -> sendAsync(exchange, profile));
        } catch (ExecutionException unexpected) {
            throw new IllegalStateException("The exchange listener failed: " + unexpected.getCause(), unexpected.getCause());
        }
    }

    /** Sends without waiting; the future always completes normally, with a failed result on failure. */
    public CompletableFuture<ExchangeResult> sendAsync(ExchangeRequest exchange) {
        return sendAsync(exchange, ConnectionProfile.DIRECT);
    }

    /**
     * Sends without waiting on connections made as {@code profile} says (proxy, source address, DNS, ...).
     * A request the server says it never processed is sent once more ({@link UnprocessedRequests}); the
     * result then spans both tries and says so ({@link ExchangeResult#retried()}). A request that
     * follows redirects sends each hop here too ({@link Redirects}), so every hop goes on the engine of
     * its protocol, with this profile.
     */
    public CompletableFuture<ExchangeResult> sendAsync(ExchangeRequest exchange, ConnectionProfile profile) {
        return sendAsync(exchange, profile, UnaryOperator.identity());
    }

    /** As {@link #sendAsync(ExchangeRequest, ConnectionProfile)}; {@code eachHop} changes a redirect's hop before it goes. */
    public CompletableFuture<ExchangeResult> sendAsync(ExchangeRequest exchange, ConnectionProfile profile,
                                                       UnaryOperator<ExchangeRequest> eachHop) {
        if (exchange.followRedirects()) {
            return Redirects.follow(exchange, eachHop, hop -> sendRetrying(hop, profile));
        }
        return sendRetrying(exchange, profile);
    }

    private CompletableFuture<ExchangeResult> sendRetrying(ExchangeRequest exchange, ConnectionProfile profile) {
        return sendOnce(exchange, profile).thenCompose(first -> {
            String why = UnprocessedRequests.retryReason(first);
            if (why == null || !usable()) {
                return CompletableFuture.completedFuture(first);
            }
            return sendOnce(exchange, profile).thenApply(second -> first.retriedAs(second, why));
        });
    }

    private CompletableFuture<ExchangeResult> sendOnce(ExchangeRequest exchange, ConnectionProfile profile) {
        if (closed) {
            throw new IllegalStateException("This user's connections are closed");
        }
        ProtocolMode mode = exchange.mode();
        if (!mode.http3()) {
            return tcp.send(exchange, profile);
        }
        refuseHttp3ThroughProxy(exchange, profile);
        URI uri = exchange.uri();
        if (mode == ProtocolMode.HTTP_3) {
            return http3().send(exchange, profile, uri.getPort());
        }
        Integer port = advertisedH3.get(origin(uri));
        if (port != null) {
            return http3().send(exchange, profile, port);
        }
        // A browser's first visit: TCP with ALPN, h2 preferred, HTTP/1.1 accepted.
        return tcp.send(exchange.withMode(ProtocolMode.HTTP_2).withAlpnFallback(true), profile)
                .whenComplete((result, ignored) -> remember(uri, result));
    }

    /** Notes the h3 alternative a response over TCP advertised (or withdrew) for its origin. */
    private void remember(URI uri, ExchangeResult result) {
        if (result == null || result.failed()) {
            return;
        }
        int port = AltSvc.h3Port(result.responseHeader("Alt-Svc"));
        if (port == AltSvc.CLEAR) {
            advertisedH3.remove(origin(uri));
        } else if (port != AltSvc.NONE) {
            advertisedH3.put(origin(uri), port);
        }
    }

    private Http3Engine http3() {
        Http3Engine h3 = quic;
        if (h3 == null) {
            synchronized (this) {
                h3 = quic;
                if (h3 == null) {
                    h3 = Http3Engine.open(tcp.responseTimeouts());
                    quic = h3;
                }
            }
        }
        return h3;
    }

    /** This user's HTTP/3 engine, or null before its first HTTP/3 request. */
    Http3Engine http3Engine() {
        return quic;
    }

    /** Aborts whatever this user has in flight (JMeter's stop button); results report the reason. */
    public void abortAll(String reason) {
        tcp.abortAll(reason);
        Http3Engine h3 = quic;
        if (h3 != null) {
            h3.abortAll(reason);
        }
    }

    /**
     * Closes this user's connections; the next request opens new ones, as a new user would
     * (JMeter's "same user on each iteration" unchecked), who has not yet heard any Alt-Svc.
     */
    public void reset() {
        advertisedH3.clear();
        tcp.reset();
        Http3Engine h3 = quic;
        if (h3 != null) {
            h3.reset();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        advertisedH3.clear();
        tcp.close();
        reads.close();
        Http3Engine h3 = quic;
        if (h3 != null) {
            h3.close();
        }
    }

    /** A plain HTTP proxy relays TCP (CONNECT) only: QUIC, which is UDP, cannot go through it. */
    private static void refuseHttp3ThroughProxy(ExchangeRequest exchange, ConnectionProfile profile) {
        if (profile.proxyFor(exchange.uri().getHost()) != null) {
            throw new IllegalArgumentException("HTTP/3 cannot go through an HTTP proxy: a proxy relays TCP (CONNECT), "
                    + "and QUIC is UDP. Use HTTP_2 or HTTP_1_1 through the proxy, or remove the proxy for HTTP/3");
        }
    }

    private static String origin(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
    }
}
