package io.h2bench.server;

import org.eclipse.jetty.http3.server.HTTP3ServerConnectionFactory;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.quic.common.StreamEndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;

/**
 * HTTP/3 whose request streams cannot make the h3 listener spin (issues 21 and 22).
 *
 * <p>quiche 0.24.5 can collect a request stream and still list it as readable for the rest of the
 * connection: when its FIN comes alone after the client acknowledged the whole response, Jetty
 * 12.1.5's zero-length probe ({@code QuicheSession.isReset}) makes {@code stream_recv} collect the
 * stream and then put it back in the readable set. Every pass of Jetty's producer then made a new
 * stream of that id, failed to read it ({@code QUICHE_ERR_INVALID_STREAM_STATE}), reset it and
 * dropped it, with no end: a core burnt on the listener's one datagram reader, which then read no
 * other connection's datagrams.
 *
 * <p>A request stream that is already finished when Jetty first sees it (quiche says so of a stream
 * it no longer has) gets a {@link ParkedStream} instead of an HTTP/3 connection: it never asks to
 * read, so Jetty keeps the stream and asks nothing more of it until the connection closes. While the
 * connection closes, Jetty's producer still makes and parks it again once a pass until quiche lets
 * the connection go (under half a second on loopback).
 */
final class ParkingHTTP3ServerConnectionFactory extends HTTP3ServerConnectionFactory {

    ParkingHTTP3ServerConnectionFactory(HttpConfiguration configuration) {
        super(configuration);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        if (((StreamEndPoint) endPoint).getStream().isRemotelyClosed()) {
            return configure(new ParkedStream(endPoint, connector), connector, endPoint);
        }
        return super.newConnection(connector, endPoint);
    }

    /** A request stream with nothing to read and no reader: closed with its QUIC connection. */
    private static final class ParkedStream extends AbstractConnection {

        private ParkedStream(EndPoint endPoint, Connector connector) {
            super(endPoint, connector.getExecutor());
        }

        @Override
        public void onFillable() {
            // never asked for: a parked stream does not read
        }
    }
}
