package io.h2bench.server.h3;

import java.net.SocketAddress;

import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.util.Attributes;

import io.netty.handler.codec.quic.QuicChannel;

/**
 * What Jetty's handlers learn of the QUIC connection a request came on: HTTP/3, secure, no push,
 * and the client's UDP address. There is no Jetty {@link Connection} under it: the QUIC connection
 * is Netty's.
 */
final class QuicConnectionMetaData extends Attributes.Lazy implements ConnectionMetaData {

    private final Http3Connector connector;
    private final QuicChannel quic;

    QuicConnectionMetaData(Http3Connector connector, QuicChannel quic) {
        this.connector = connector;
        this.quic = quic;
    }

    @Override
    public String getId() {
        return quic.id().asShortText();
    }

    @Override
    public HttpConfiguration getHttpConfiguration() {
        return connector.configuration();
    }

    @Override
    public HttpVersion getHttpVersion() {
        return HttpVersion.HTTP_3;
    }

    @Override
    public String getProtocol() {
        return "h3";
    }

    @Override
    public Connection getConnection() {
        return null;
    }

    @Override
    public Connector getConnector() {
        return connector;
    }

    @Override
    public boolean isPersistent() {
        return true;
    }

    @Override
    public boolean isSecure() {
        return true;
    }

    @Override
    public boolean isPushSupported() {
        return false;
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return quic.remoteSocketAddress();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return quic.localSocketAddress();
    }
}
