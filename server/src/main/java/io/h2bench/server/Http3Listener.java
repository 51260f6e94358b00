package io.h2bench.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.jetty.http3.server.HTTP3ServerConnectionFactory;
import org.eclipse.jetty.http3.server.HTTP3ServerQuicConfiguration;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.quic.quiche.server.QuicheServerConnectionFactory;
import org.eclipse.jetty.quic.quiche.server.QuicheServerConnector;
import org.eclipse.jetty.quic.quiche.server.QuicheServerQuicConfiguration;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.ssl.SslContextFactory;

import io.h2bench.server.netem.kernel.KernelLink;

/**
 * The h3 listener: HTTP/3 over QUIC on a UDP port, by default the h2 listener's port number (as
 * sites serve h3 on 443 beside TCP), with the server's handler tree and certificate. The byte proxy
 * relays TCP only, so behind it there is no h3 listener, and {@link #notStartedReason()} says why.
 * Its request streams are guarded by {@link ParkingHTTP3ServerConnectionFactory}, and its QUIC
 * sessions send when ACKs arrive ({@link AckClockedQuicheConnection}).
 */
final class Http3Listener {

    static final String ID = "h3";
    static final String DESCRIPTION = "HTTP/3 over QUIC (UDP)";
    /** {@link ServerSettings#h3Port()} for "the port number the h2 listener got". */
    static final int ON_H2_PORT = -1;
    static final String BEHIND_BYTE_PROXY = "not started: the byte proxy relays TCP only, and QUIC is UDP "
            + "(the kernel engine carries it: --engine kernel, as root)";

    private final PemDirectoryConnector connector;
    private final String notStartedReason;

    private Http3Listener(PemDirectoryConnector connector, String notStartedReason) {
        this.connector = connector;
        this.notStartedReason = notStartedReason;
    }

    /** An h3 listener on {@code host}, added to {@code server}; opened by {@link #open}. */
    static Http3Listener create(Server server, SslContextFactory.Server ssl, HttpConfiguration https, String host) {
        QuicheServerQuicConfiguration quic = HTTP3ServerQuicConfiguration.configure(new QuicheServerQuicConfiguration());
        PemDirectoryConnector connector = new PemDirectoryConnector(server, ssl, quic, new ParkingHTTP3ServerConnectionFactory(https));
        connector.setName(ID);
        connector.setHost(host);
        server.addConnector(connector);
        return new Http3Listener(connector, null);
    }

    /** No h3 listener, for {@code reason}. */
    static Http3Listener notStarted(String reason) {
        return new Http3Listener(null, reason);
    }

    /** Binds the UDP port ({@link #ON_H2_PORT}: {@code h2Port}), inside the link's namespace when there is one. */
    void open(KernelLink link, int requestedPort, int h2Port) throws IOException {
        if (connector == null) {
            return;
        }
        connector.setPort(requestedPort == ON_H2_PORT ? h2Port : requestedPort);
        KernelLinks.open(link, List.of(connector));
    }

    boolean started() {
        return connector != null;
    }

    /** The UDP port, or 0 before {@link #open} and when not started. */
    int port() {
        return connector == null ? 0 : Math.max(0, connector.getLocalPort());
    }

    /** The port {@link #open} asked for, for a bind failure's message. */
    int requestedPort() {
        return connector == null ? 0 : connector.getPort();
    }

    /** Why there is no h3 listener, or null. */
    String notStartedReason() {
        return notStartedReason;
    }

    /**
     * Quiche's connector with a PEM directory ({@link PemDirectory}) of its own while it runs, whose
     * one datagram connection is an {@link AckClockedQuicheConnection}.
     */
    private static final class PemDirectoryConnector extends QuicheServerConnector {

        private Path pemDirectory;

        PemDirectoryConnector(Server server, SslContextFactory.Server ssl, QuicheServerQuicConfiguration quic,
                              HTTP3ServerConnectionFactory http3) {
            super(server, ssl, quic, http3);
        }

        @Override
        protected Connection newConnection(EndPoint endPoint) {
            return AckClockedQuicheConnection.create(this, (QuicheServerConnectionFactory) getDefaultConnectionFactory(), endPoint);
        }

        @Override
        protected void doStart() throws Exception {
            pemDirectory = PemDirectory.create();
            getServerQuicConfiguration().setPemWorkDirectory(pemDirectory);
            try {
                super.doStart();
            } catch (Exception | Error e) {
                deletePemDirectory();
                throw e;
            }
        }

        @Override
        protected void doStop() throws Exception {
            try {
                super.doStop();
            } finally {
                deletePemDirectory();
            }
        }

        private void deletePemDirectory() throws IOException {
            if (pemDirectory != null) {
                PemDirectory.delete(pemDirectory);
                pemDirectory = null;
            }
        }
    }
}
