package io.h2bench.server;

import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.api.server.ServerSessionListener;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.util.Callback;

/** Clear-text HTTP/2 (prior knowledge and Upgrade) with RFC 9113's stream errors (see {@link StreamErrors}) and its session set-up in one write ({@link SessionSetUp}). */
final class StrictHTTP2CServerConnectionFactory extends HTTP2CServerConnectionFactory {

    StrictHTTP2CServerConnectionFactory(HttpConfiguration configuration) {
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
