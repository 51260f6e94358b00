package io.h2bench.client.direct;

import io.h2bench.client.wire.WireConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;

/**
 * The sampler's own HTTP/1.1 ({@code DirectConnections}), for a TLS connection the own HTTP/2
 * ({@code DirectHttp2Connections}) opened on which ALPN chose http/1.1 (or nothing): an https
 * request that may fall back ({@code ExchangeRequest#alpnFallback}) offers {@code h2, http/1.1} on a
 * new connection, as browsers and Jetty's {@code HttpClient} do, and the server's choice decides
 * which engine carries it. The socket, its TLS handshake and the exchange's recorder (attached when
 * the handshake began) stay as they are: the request goes on in the HTTP/1.1 engine's exchange, the
 * same sample, so its Connect, TLS and Latency are that engine's own. Declared here, below both,
 * because h1 and h2 do not know each other; {@code TcpEngines} joins them.
 */
public interface AlpnHandover {

    /**
     * Makes this engine's connection on {@code endPoint} (TLS done, counted by {@code wire}), which
     * carries {@code from}'s request first, and keeps it among its connections to {@code key}.
     */
    Connection adopt(OriginKey key, EndPoint endPoint, WireConnection wire, DirectExchange from);

    /** Sends {@code from}'s request on this engine's connections to {@code key}: it waited for the one ALPN gave here. */
    void take(OriginKey key, DirectExchange from);
}
