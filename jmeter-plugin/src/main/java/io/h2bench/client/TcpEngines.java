package io.h2bench.client;

import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.direct.OriginKey;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolEngine;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.h1.DirectConnections;
import io.h2bench.client.h2.DirectHttp2Connections;
import io.h2bench.client.profile.ConnectionProfile;
import java.net.URI;
import java.util.concurrent.CompletableFuture;

/**
 * A virtual user's HTTP/1.1 and HTTP/2 engines, and the one place that picks, per request, the
 * engine that sends it (named in its result, {@link ExchangeResult#engine()}): the sampler's own
 * HTTP/1.1 ({@link DirectConnections}, {@value DirectConnections#ENGINE}) for HTTP_1_1, its own
 * HTTP/2 ({@link DirectHttp2Connections}, {@value DirectHttp2Connections#ENGINE}) for the rest,
 * direct or through a proxy, reached in clear text or over TLS.
 * An https request whose HTTP version the scheme chose (h2, or http/1.1 if the server's ALPN picks
 * it) goes to the own HTTP/2, which hands the handshake's socket to the own HTTP/1.1 when ALPN chose
 * http/1.1, and the origin's next ones straight to the own HTTP/1.1 while that choice holds. An h2c
 * Upgrade request goes to the own HTTP/2, which has the own HTTP/1.1 ask for the upgrade when no
 * upgraded connection lives, and takes the socket on at the server's 101: the two are joined here.
 * None of them follows redirects: {@link UserConnections} sends each hop here as a request of its own.
 * Not thread-safe for reset/close; requests may be sent concurrently (a page load's resources).
 */
final class TcpEngines implements ProtocolEngine {

    private final SharedClient shared;
    private final ResponseTimeouts responseTimeouts;
    private final DirectConnections connections;
    private final DirectHttp2Connections http2Connections;
    private boolean closed;

    private TcpEngines(SharedClient shared) {
        this.shared = shared;
        this.responseTimeouts = new ResponseTimeouts(shared.connector().getScheduler());
        this.connections = new DirectConnections(shared, responseTimeouts);
        this.http2Connections = new DirectHttp2Connections(shared, responseTimeouts);
        http2Connections.fallBackTo(connections);
        connections.upgradeTo(http2Connections);
    }

    /** A new virtual user on the shared client (which starts if it is not running). */
    static TcpEngines open() {
        return new TcpEngines(SharedClient.acquire());
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
    public CompletableFuture<ExchangeResult> send(ExchangeRequest asked, ConnectionProfile profile) {
        if (closed) {
            throw new IllegalStateException("This user's connections are closed");
        }
        ExchangeRequest exchange = overTlsWhenHttps(asked);
        OriginKey key = new OriginKey(origin(exchange.uri()), profile);
        if (exchange.mode() == ProtocolMode.HTTP_1_1) {
            return connections.send(key, exchange);
        }
        // ALPN chose http/1.1 for this origin on a connection that still lives: its requests go there, as a browser's would.
        if (exchange.alpnFallback() && connections.choseHttp11(key)) {
            return connections.send(key, exchange);
        }
        return http2Connections.send(key, exchange);
    }

    @Override
    public void abortAll(String reason) {
        connections.abortAll(reason);
        http2Connections.abortAll(reason);
    }

    @Override
    public void reset() {
        connections.reset();
        http2Connections.reset();
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
     * h2c is HTTP/2 in clear text, and an https URL asks for TLS: the scheme wins, as with curl's
     * {@code --http2} and {@code --http2-prior-knowledge}, which both offer h2 by ALPN to an https URL and
     * never send an h2c Upgrade or preface there. H2C (prior knowledge) insists on h2 as HTTP_2 set
     * explicitly does; H2C_UPGRADE, which takes HTTP/1.1 from a server that declines, takes ALPN's http/1.1.
     */
    private static ExchangeRequest overTlsWhenHttps(ExchangeRequest exchange) {
        boolean h2c = exchange.mode() == ProtocolMode.H2C || exchange.mode() == ProtocolMode.H2C_UPGRADE;
        if (!h2c || !"https".equalsIgnoreCase(exchange.uri().getScheme())) {
            return exchange;
        }
        return exchange.withMode(ProtocolMode.HTTP_2).withAlpnFallback(exchange.mode() == ProtocolMode.H2C_UPGRADE);
    }

    private static String origin(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
    }
}
