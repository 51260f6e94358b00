package io.h2bench.server;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;

/**
 * {@code Alt-Svc: h3=":PORT"} on the TLS listeners' HTTP/1.1 responses once the h3 listener is open,
 * as sites announce HTTP/3 beside TCP. HTTP/2 responses get the same header from Jetty 12.1.14's
 * {@code HTTP2ServerConnectionFactory} itself (its {@code AltSvcCustomizer} names every connector
 * that speaks h3), so this one leaves them alone.
 */
final class AltSvc implements HttpConfiguration.Customizer {

    /** The h3 listener's UDP port; 0 while there is none, and then no header. */
    private volatile int h3Port;

    void advertise(int port) {
        h3Port = port;
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        int port = h3Port;
        if (port > 0 && request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_2) {
            responseHeaders.put(HttpHeader.ALT_SVC, "h3=\":" + port + "\"");
        }
        return request;
    }
}
