package io.h2bench.server;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
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

    /** The header naming the h3 listener's UDP port, encoded once for every response; null while there is none. */
    private volatile HttpField header;

    void advertise(int port) {
        header = port > 0 ? new PreEncodedHttpField(HttpHeader.ALT_SVC, "h3=\":" + port + "\"") : null;
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        HttpField altSvc = header;
        if (altSvc != null && request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_2) {
            responseHeaders.put(altSvc);
        }
        return request;
    }
}
