package io.h2bench.client.exchange;

import java.util.Locale;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;

/**
 * An HTTP/1.1 response read by Jetty's {@link HttpParser}: its status line and header fields, kept
 * as the server spelled them, for the own HTTP/1.1's responses ({@code h1.Http11ResponseParser}) and
 * a proxy's answer to a {@code CONNECT} ({@code connect.ProxyTunnel}). What the body and the end
 * of a response mean is the subclass's.
 */
public abstract class Http11ResponseReader implements HttpParser.ResponseHandler {

    protected final HttpParser parser = new HttpParser(this);
    protected int status;
    protected String reason;
    protected HttpVersion version;
    protected HttpFields.Mutable fields = HttpFields.build();

    protected Http11ResponseReader() {
        // Jetty's cache of common fields matches values case-insensitively and hands back its own
        // spelling ("charset=utf-8" for the server's "charset=UTF-8"); the sample shows the server's.
        parser.setHeaderCacheCaseSensitive(true);
    }

    /** A new response's status line: its fields start empty. */
    @Override
    public void startResponse(HttpVersion responseVersion, int responseStatus, String responseReason) {
        version = responseVersion;
        status = responseStatus;
        reason = responseReason;
        fields = HttpFields.build();
    }

    @Override
    public void parsedHeader(HttpField field) {
        fields.add(field);
    }

    @Override
    public boolean headerComplete() {
        return false;
    }

    @Override
    public boolean contentComplete() {
        return false;
    }

    @Override
    public boolean messageComplete() {
        return true;
    }

    /** The status line and fields of the response read last. */
    public final ExchangeRecorder.ResponseHead head() {
        return new ExchangeRecorder.ResponseHead(status, reason, version, fields);
    }

    /** Whether the response lets its connection carry another request (RFC 9112 9.3). */
    public final boolean keepsAlive() {
        String value = fields.get(HttpHeader.CONNECTION);
        String lower = value == null ? "" : value.toLowerCase(Locale.ROOT);
        if (version == HttpVersion.HTTP_1_0) {
            return lower.contains(HttpHeaderValue.KEEP_ALIVE.asString());
        }
        return !lower.contains(HttpHeaderValue.CLOSE.asString());
    }
}
