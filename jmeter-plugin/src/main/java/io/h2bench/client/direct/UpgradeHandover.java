package io.h2bench.client.direct;

import io.h2bench.client.wire.WireConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;

/**
 * The sampler's own HTTP/2 ({@code DirectHttp2Connections}), for a cleartext connection on which the
 * own HTTP/1.1 ({@code DirectConnections}) asked for the h2c Upgrade (RFC 7540 section 3.2) and the
 * server answered 101 Switching Protocols: {@link AlpnHandover} in the other direction. The request
 * that asks for the upgrade is the HTTP/2 engine's (an {@code H2C_UPGRADE} request waits there, as
 * for any connect), which gives it to the HTTP/1.1 engine to write ({@link AlpnHandover#take}); on
 * the 101 the socket, the bytes read after it and the exchange's recorder come back here, and the
 * response is read as stream 1, the same sample. Declared here, below both, because h1 and h2 do not
 * know each other; {@code TcpEngines} joins them.
 */
public interface UpgradeHandover {

    /**
     * Makes this engine's connection on {@code endPoint} (the 101 read, counted by {@code wire}), whose
     * stream 1 carries {@code from}'s response, and keeps it among its connections to {@code key}. The
     * caller then hands it the end point ({@code EndPoint.upgrade}), with what was read after the 101.
     */
    Connection adopt(OriginKey key, EndPoint endPoint, WireConnection wire, DirectExchange from);
}
