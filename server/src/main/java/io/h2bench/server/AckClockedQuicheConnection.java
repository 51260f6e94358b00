package io.h2bench.server;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.EventListener;
import java.util.List;

import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.quic.quiche.Quiche;
import org.eclipse.jetty.quic.quiche.QuicheStream;
import org.eclipse.jetty.quic.quiche.server.QuicheServerConnectionFactory;
import org.eclipse.jetty.quic.quiche.server.internal.ServerQuicheConnection;
import org.eclipse.jetty.quic.quiche.server.internal.ServerQuicheSession;
import org.eclipse.jetty.server.Connector;

/**
 * The h3 listener's datagram connection, whose QUIC sessions send as soon as a datagram may have let
 * them (issue 21), and whose stalled response writes cannot miss their wake-up.
 *
 * <p>quiche expects {@code quiche_conn_send} after every {@code quiche_conn_recv}: an ACK can open
 * the congestion window, and it can declare packets lost, whose data then waits in quiche to be sent
 * again. Jetty 12.1.5's {@code ServerQuicheSession.process} feeds an established session's datagram
 * and only runs its stream producer, which sends nothing unless a stream reads or writes; so the
 * released data waited for quiche's next timer (loss detection, PTO), and behind 5 % loss the server
 * sent a group every 0.7 to 3.1 s while the client's ACKs went unanswered. Here each session also
 * flushes after each datagram it is fed: the send loop returns at once when quiche has nothing.
 *
 * <p>A response write that quiche takes only in part (the congestion window is full) is parked by
 * Jetty's {@code QuicheStream.write} <em>after</em> {@code quiche_conn_stream_send} returns, and
 * resumed only by a stream producer that finds it parked. The datagram reader can send the part
 * quiche took and run the producer for the client's ACKs of it in between: the producer then finds
 * the write not yet parked, nothing is left in flight, no ACK comes again, and the response stops
 * until the client sends something else (in CI's jmeter-maven-plugin example a 2 MB body stopped
 * after 14 kB until the sampler's 30 s timeout).
 * Here the writing thread, whose next flush follows the parking, runs the producer once more then.
 */
final class AckClockedQuicheConnection extends ServerQuicheConnection {

    private final List<StalledWriteListener> stalledWriteListeners;

    private AckClockedQuicheConnection(Connector connector, QuicheServerConnectionFactory factory, EndPoint endPoint) {
        super(connector, factory.getSslContextFactory(), factory.getServerQuicConfiguration(), endPoint,
                factory.getSessionListenerFactory());
        stalledWriteListeners = connector.getEventListeners().stream()
                .filter(StalledWriteListener.class::isInstance).map(StalledWriteListener.class::cast).toList();
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

    /**
     * Told, on the writing thread, that quiche took only part of a stream write, before Jetty parks
     * the write: a connector bean, as Jetty's {@code Connection.Listener}s are.
     */
    interface StalledWriteListener extends EventListener {
        void onStalledWrite();
    }

    /** A session that asks quiche for packets after every datagram, and produces again after a stalled write. */
    private static final class AckClockedSession extends ServerQuicheSession {

        /** Set on the thread whose write quiche took in part; its next flush comes after Jetty parked the write. */
        private static final ThreadLocal<Boolean> WRITE_STALLED = ThreadLocal.withInitial(() -> Boolean.FALSE);

        private final List<StalledWriteListener> stalledWriteListeners;

        private AckClockedSession(Connector connector, Quiche quiche, AckClockedQuicheConnection connection,
                                  SocketAddress local, SocketAddress remote) {
            super(connector, connection.getServerQuicConfiguration(), quiche, connection, local, remote,
                    connection.getSessionListenerFactory().newListener());
            stalledWriteListeners = connection.stalledWriteListeners;
        }

        @Override
        public void feed(SocketAddress remoteAddress, ByteBuffer cipherBuffer) throws IOException {
            super.feed(remoteAddress, cipherBuffer);
            flush();
        }

        @Override
        protected int data(QuicheStream stream, boolean last, ByteBuffer buffer) throws IOException {
            int offered = buffer.remaining();
            int taken = super.data(stream, last, buffer);
            if (taken < offered) {
                WRITE_STALLED.set(Boolean.TRUE);
                stalledWriteListeners.forEach(StalledWriteListener::onStalledWrite);
            }
            return taken;
        }

        @Override
        public void flush() {
            super.flush();
            if (WRITE_STALLED.get()) {
                WRITE_STALLED.set(Boolean.FALSE);
                // The client's ACKs may all have been handled before Jetty parked the write: look again.
                dispatch();
            }
        }
    }
}
