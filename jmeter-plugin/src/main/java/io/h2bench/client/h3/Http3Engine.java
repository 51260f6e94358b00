package io.h2bench.client.h3;

import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolEngine;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.exchange.ResponseWatchdog;
import io.h2bench.client.profile.ConnectionProfile;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A virtual user's HTTP/3 on Netty's QUIC: one connection per origin and UDP port, opened by the
 * user's first request there and reused, with every concurrent request (a page's resources) on
 * its own stream of that one connection. Features QUIC cannot carry here are refused with a reason
 * before anything is sent: a proxy (in {@link io.h2bench.client.UserConnections}), a bandwidth
 * limit per connection (cps) and a client certificate. Redirects come here hop by hop, each a
 * request of its own ({@link io.h2bench.client.UserConnections} follows them).
 */
public final class Http3Engine implements ProtocolEngine {

    /** The name its samples carry (ExchangeResult#engine): HTTP/3 on Netty's QUIC. */
    public static final String ENGINE = "h3-netty";

    private final QuicTransport transport;
    private final ResponseTimeouts responseTimeouts;
    private final Map<String, QuicConnection> connections = new ConcurrentHashMap<>();
    private final Set<Http3Exchange> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private Http3Engine(QuicTransport transport, ResponseTimeouts responseTimeouts) {
        this.transport = transport;
        this.responseTimeouts = responseTimeouts;
    }

    /**
     * A new user's HTTP/3 on the shared transport (which starts if it is not running); its response
     * timeouts run on the user's {@code responseTimeouts}, by the TCP engines' rules.
     */
    public static Http3Engine open(ResponseTimeouts responseTimeouts) {
        return new Http3Engine(QuicTransport.acquire(), responseTimeouts);
    }

    @Override
    public CompletableFuture<ExchangeResult> send(ExchangeRequest exchange, ConnectionProfile profile) {
        return send(exchange, profile, exchange.uri().getPort());
    }

    /** Sends to the origin of the request's URI, over QUIC on {@code udpPort} (an Alt-Svc's port, say). */
    public CompletableFuture<ExchangeResult> send(ExchangeRequest exchange, ConnectionProfile profile, int udpPort) {
        if (closed) {
            throw new IllegalStateException("This user's HTTP/3 connections are closed");
        }
        refuseUnsupported(exchange, profile);
        URI uri = exchange.uri();
        int port = udpPort > 0 ? udpPort : 443;
        String key = uri.getHost() + ":" + port + "/" + profile.hashCode();
        // The sample starts here, as on the TCP engines; its times and bytes are the recorder's.
        ExchangeRecorder recorder = new ExchangeRecorder(exchange, uri, false);
        QuicConnection connection;
        try {
            connection = connections.compute(key, (ignored, existing) -> existing != null && existing.usable() ? existing
                    : QuicConnection.open(transport, resolve(uri.getHost(), port, profile), profile.sourceAddress(),
                            uri.getHost(), profile.preset().http3(), exchange.connectTimeout().toMillis()));
        } catch (UnresolvedHost unresolved) {
            recorder.completed(null, unresolved.getCause());
            return recorder.result().thenApply(done -> done.sentBy(ENGINE));
        }
        Http3Exchange h3 = new Http3Exchange(exchange, connection, recorder);
        // Silence counts from here, or from the written request when a connect timeout owns the handshake.
        recorder.watchWith(ResponseWatchdog.watch(responseTimeouts, h3::fail, exchange.responseTimeout().toMillis(),
                !exchange.connectTimeout().isZero()));
        inFlight.add(h3);
        connection.ready().whenComplete((quic, failure) -> {
            if (failure != null) {
                h3.fail(failure instanceof java.util.concurrent.CompletionException ? failure.getCause() : failure);
            } else {
                h3.connected();
            }
        });
        return h3.result().whenComplete((done, ignored) -> inFlight.remove(h3)).thenApply(done -> done.sentBy(ENGINE));
    }

    private static InetSocketAddress resolve(String host, int port, ConnectionProfile profile) {
        try {
            InetAddress[] addresses = profile.resolver() == null ? InetAddress.getAllByName(host) : profile.resolver().resolve(host);
            return new InetSocketAddress(addresses[0], port);
        } catch (UnknownHostException | RuntimeException failure) {
            throw new UnresolvedHost(failure);
        }
    }

    /** What this engine cannot do, said before a packet leaves. */
    private static void refuseUnsupported(ExchangeRequest exchange, ConnectionProfile profile) {
        if (!"https".equalsIgnoreCase(exchange.uri().getScheme())) {
            throw new IllegalArgumentException("HTTP/3 needs an https:// URL (QUIC always encrypts), was " + exchange.uri());
        }
        if (profile.cps() > 0) {
            throw new IllegalArgumentException("HTTP/3 cannot apply httpclient.socket.https.cps (a bandwidth limit per TCP "
                    + "connection): emulate the bandwidth with the server's network link instead");
        }
        if (profile.certificate() != null) {
            throw new IllegalArgumentException("HTTP/3 does not offer client certificates in this sampler yet: "
                    + "use HTTP_2 or HTTP_1_1 for a test with a Keystore Configuration");
        }
        if (profile.preset().http3() == null) {
            throw new IllegalArgumentException("The " + profile.preset().displayName() + " preset has no HTTP/3 "
                    + "transport parameters (Netty's QUIC defaults let no response body through): choose Chrome or Firefox for HTTP/3");
        }
    }

    @Override
    public boolean usable() {
        return !closed && transport.live();
    }

    @Override
    public void abortAll(String reason) {
        for (Http3Exchange exchange : inFlight) {
            exchange.fail(new java.io.InterruptedIOException(reason));
        }
    }

    @Override
    public void reset() {
        for (QuicConnection connection : connections.values()) {
            connection.close();
        }
        connections.clear();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        reset();
        transport.release();
    }

    /** UDP payload bytes {received, sent} by this user's open QUIC connections: what its samples add up to. */
    public long[] datagramBytes() {
        long in = 0;
        long out = 0;
        for (QuicConnection connection : connections.values()) {
            in += connection.wire().totalIn();
            out += connection.wire().totalOut();
        }
        return new long[] {in, out};
    }

    /** A host name that did not resolve, carried out of the connection map's compute. */
    private static final class UnresolvedHost extends RuntimeException {

        private static final long serialVersionUID = 1L;

        UnresolvedHost(Exception cause) {
            super(cause);
        }
    }
}
