package io.h2bench.server;

import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.api.server.ServerSessionListener;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.util.Callback;

/** HTTP/2 over TLS with RFC 9113's stream errors where Jetty is lenient (see {@link StreamErrors}) and its session set-up in one write ({@link SessionSetUp}). */
final class StrictHTTP2ServerConnectionFactory extends HTTP2ServerConnectionFactory {

    StrictHTTP2ServerConnectionFactory(HttpConfiguration configuration) {
        super(configuration);
    }

    @Override
    protected ServerSessionListener newSessionListener(Connector connector, EndPoint endPoint) {
        return new HTTPServerSessionListener(endPoint) {
            @Override
            public void onStreamFailure(Stream stream, Throwable failure, Callback callback) {
                StreamErrors.resetMalformedRequest(stream, callback);
            }
        };
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        HTTP2Connection connection = SessionSetUp.newConnection(this, connector, endPoint,
                newSessionListener(connector, endPoint), built -> configure(built, connector, endPoint));
        return StreamErrors.answerDataOnClosedStreams(Http2Writes.gathered(connection));
    }
}
