package io.h2bench.server;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.quic.quiche.Quiche;
import org.eclipse.jetty.quic.quiche.server.QuicheServerConnectionFactory;
import org.eclipse.jetty.quic.quiche.server.internal.ServerQuicheConnection;
import org.eclipse.jetty.quic.quiche.server.internal.ServerQuicheSession;
import org.eclipse.jetty.server.Connector;

/**
 * The h3 listener's datagram connection, whose QUIC sessions send as soon as a datagram may have let
 * them (issue 21).
 *
 * <p>quiche expects {@code quiche_conn_send} after every {@code quiche_conn_recv}: an ACK can open
 * the congestion window, and it can declare packets lost, whose data then waits in quiche to be sent
 * again. Jetty 12.1.5's {@code ServerQuicheSession.process} feeds an established session's datagram
 * and only runs its stream producer, which sends nothing unless a stream reads or writes; so the
 * released data waited for quiche's next timer (loss detection, PTO), and behind 5 % loss the server
 * sent a group every 0.7 to 3.1 s while the client's ACKs went unanswered. Here each session also
 * flushes after each datagram it is fed: the send loop returns at once when quiche has nothing.
 */
final class AckClockedQuicheConnection extends ServerQuicheConnection {

    private AckClockedQuicheConnection(Connector connector, QuicheServerConnectionFactory factory, EndPoint endPoint) {
        super(connector, factory.getSslContextFactory(), factory.getServerQuicConfiguration(), endPoint,
                factory.getSessionListenerFactory());
    }

    /** What {@code factory.newConnection(connector, endPoint)} makes, with {@link AckClockedSession}s. */
    static AckClockedQuicheConnection create(Connector connector, QuicheServerConnectionFactory factory, EndPoint endPoint) {
        AckClockedQuicheConnection connection = new AckClockedQuicheConnection(connector, factory, endPoint);
        // As Jetty's factory configures its connections: listeners of connector and factory, buffer size.
        connector.getEventListeners().forEach(connection::addEventListener);
        factory.getEventListeners().forEach(connection::addEventListener);
        connection.setInputBufferSize(factory.getInputBufferSize());
        return connection;
    }

    @Override
    protected ServerQuicheSession newServerQuicheSession(Quiche quiche, SocketAddress remoteAddress) {
        SocketAddress local = Quiche.toInetSocketAddress(getEndPoint().getLocalSocketAddress(), false);
        return new AckClockedSession(getConnector(), quiche, this, local, remoteAddress);
    }

    /** A session that asks quiche for packets after every datagram it feeds it. */
    private static final class AckClockedSession extends ServerQuicheSession {

        private AckClockedSession(Connector connector, Quiche quiche, AckClockedQuicheConnection connection,
                                  SocketAddress local, SocketAddress remote) {
            super(connector, connection.getServerQuicConfiguration(), quiche, connection, local, remote,
                    connection.getSessionListenerFactory().newListener());
        }

        @Override
        public void feed(SocketAddress remoteAddress, ByteBuffer cipherBuffer) throws IOException {
            super.feed(remoteAddress, cipherBuffer);
            flush();
        }
    }
}
