package io.h2bench.server.h3;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;

import io.netty.handler.codec.http3.Http3Headers;

/** Between Netty's HTTP/3 header sections and Jetty's request and response metadata. */
final class Http3Fields {

    /** RFC 9114 4.2: connection-specific fields must not appear in HTTP/3. */
    private static final Set<String> CONNECTION_SPECIFIC = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade");

    private Http3Fields() {
    }

    /** A request header section as Jetty's metadata; null when a pseudo-header it needs is missing. */
    static MetaData.Request request(Http3Headers headers) {
        CharSequence method = headers.method();
        CharSequence path = headers.path();
        CharSequence authority = headers.authority();
        CharSequence scheme = headers.scheme();
        if (method == null || path == null || scheme == null) {
            return null;
        }
        HttpFields.Mutable fields = HttpFields.build(headers.size());
        long contentLength = -1;
        for (Map.Entry<CharSequence, CharSequence> header : headers) {
            String name = header.getKey().toString();
            if (name.startsWith(":")) {
                continue;
            }
            String value = header.getValue().toString();
            if (name.equals("content-length")) {
                contentLength = Long.parseLong(value.trim());
            }
            fields.add(name, value);
        }
        if (authority != null && !fields.contains(HttpHeader.HOST)) {
            fields.put(HttpHeader.HOST, authority.toString());
        }
        HttpURI uri = HttpURI.build().scheme(scheme.toString())
                .authority(authority == null ? null : authority.toString())
                .pathQuery(path.toString());
        return new MetaData.Request(method.toString(), uri, HttpVersion.HTTP_3, fields, contentLength);
    }

    /** A response's status and fields into {@code headers}, with its content length when known. */
    static void response(MetaData.Response response, long contentLength, Http3Headers headers) {
        headers.status(Integer.toString(response.getStatus()));
        fields(response.getHttpFields(), headers);
        if (contentLength >= 0 && !headers.contains("content-length")) {
            headers.set("content-length", Long.toString(contentLength));
        }
    }

    /** Fields (a response's or its trailers') into {@code headers}, names in lower case, connection-specific ones left out. */
    static void fields(HttpFields fields, Http3Headers headers) {
        for (HttpField field : fields) {
            String name = field.getLowerCaseName();
            if (name == null) {
                name = field.getName().toLowerCase(Locale.ROOT);
            }
            if (!CONNECTION_SPECIFIC.contains(name)) {
                headers.add(name, field.getValue());
            }
        }
    }
}
