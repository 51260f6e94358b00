package io.h2bench.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;

import io.h2bench.server.h3.Http3Connector;
import io.h2bench.server.h3.Http3WarmUp;
import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.netem.kernel.KernelLink;

/**
 * The h3 listener: HTTP/3 over QUIC on a UDP port, by default the h2 listener's port number (as
 * sites serve h3 on 443 beside TCP), with the server's handler tree and certificate. The byte proxy
 * relays TCP only, so behind it there is no h3 listener, and {@link #notStartedReason()} says why.
 */
final class Http3Listener {

    static final String ID = "h3";
    static final String DESCRIPTION = "HTTP/3 over QUIC (UDP)";
    /** {@link ServerSettings#h3Port()} for "the port number the h2 listener got". */
    static final int ON_H2_PORT = -1;
    static final String BEHIND_BYTE_PROXY = "not started: the byte proxy relays TCP only, and QUIC is UDP "
            + "(the kernel engine carries it: --engine kernel, as root)";

    private final Http3Connector connector;
    private final String notStartedReason;

    private Http3Listener(Http3Connector connector, String notStartedReason) {
        this.connector = connector;
        this.notStartedReason = notStartedReason;
    }

    /** An h3 listener on {@code host}, added to {@code server}; opened by {@link #open}. */
    static Http3Listener create(Server server, TlsMaterial tls, HttpConfiguration configuration, String host, QuicOptions options)
            throws IOException {
        Http3Connector connector = new Http3Connector(server, configuration, keys(tls), options);
        connector.setName(ID);
        connector.setHost(host);
        server.addConnector(connector);
        return new Http3Listener(connector, null);
    }

    private static KeyManagerFactory keys(TlsMaterial tls) throws IOException {
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, tls.password().toCharArray());
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, tls.password().toCharArray());
            return keys;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the key and certificate of " + tls.keystore() + " for h3: " + e.getMessage(), e);
        }
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
        if (link != null) {
            connector.setNamespace(link::inNamespace);
        }
        connector.open();
    }

    /**
     * A warm-up of this listener ({@link Http3WarmUp}) from {@code host}, where it answers (inside the
     * link's namespace when there is one); null when not started or {@code connections} is 0. The caller
     * closes it.
     */
    Http3WarmUp warmUp(KernelLink link, String host, int connections) {
        if (connector == null || connections == 0) {
            return null;
        }
        InetSocketAddress local = new InetSocketAddress(host, 0);
        Http3WarmUp.DatagramOpener opener = link == null ? () -> Http3Connector.bind(local)
                : () -> link.inNamespace(() -> Http3Connector.bind(local));
        return new Http3WarmUp(new InetSocketAddress(host, port()), opener, connector.options().qlogDirectory());
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

    /** Its QUIC settings, for the banner; null when not started. */
    QuicOptions options() {
        return connector == null ? null : connector.options();
    }

    /** Whether it writes a paced burst's datagrams in one system call (GSO), for the banner. */
    boolean segmentsWrites() {
        return connector != null && connector.segmentsWrites();
    }
}
