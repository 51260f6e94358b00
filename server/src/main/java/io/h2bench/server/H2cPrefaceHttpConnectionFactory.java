package io.h2bench.server;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * HTTP/1.1 in front of h2c on the clear-text HTTP/2 listener. The listener speaks HTTP/1.x and
 * HTTP/2 only, so a first line naming any other version is a broken HTTP/2 connection preface:
 * RFC 9113 3.4 wants the connection closed, where Jetty would answer with an HTTP/1.1 505 page.
 */
final class H2cPrefaceHttpConnectionFactory extends HttpConnectionFactory {

    H2cPrefaceHttpConnectionFactory(HttpConfiguration configuration) {
        super(configuration);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        HttpConnection connection = new ClosingOnUnknownVersion(getHttpConfiguration(), connector, endPoint);
        connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
        return configure(connection, connector, endPoint);
    }

    private static final class ClosingOnUnknownVersion extends HttpConnection {
        ClosingOnUnknownVersion(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
            super(configuration, connector, endPoint);
        }

        @Override
        protected RequestHandler newRequestHandler() {
            return new RequestHandler() {
                @Override
                public void badMessage(HttpException failure) {
                    if (failure.getCode() == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505) {
                        getEndPoint().close();
                        return;
                    }
                    super.badMessage(failure);
                }
            };
        }
    }
}
