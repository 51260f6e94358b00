package io.h2bench.client.exchange;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One HTTP request as the sampler wants it sent: everything JMeter decided (headers from the
 * managers, the body it built), nothing about JMeter itself.
 *
 * @param method          GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or any other token
 * @param uri             absolute http or https URI
 * @param headers         request headers in order, cookies and authorization included
 * @param body            request body bytes, empty for none
 * @param mode            the protocol to speak
 * @param connectTimeout  limit for the TCP connect, then for each silence of the TLS handshake (as
 *                        JMeter's HttpClient4 applies it); zero means none
 * @param responseTimeout limit for silence while waiting for the response; zero means none
 * @param followRedirects let the client follow 3xx itself, hop by hop on the request's own engine
 *                        (JMeter's "Redirect Automatically" for a page's resources, see {@code client.Redirects})
 * @param acceptPush      accept HTTP/2 server pushes and report them; refused when false
 * @param maxConnectionsPerOrigin HTTP/1.1 connections this user may open to one origin (HTTP/2: 1)
 * @param alpnFallback    HTTP_2 over https may go on over http/1.1 when the server's ALPN picks it
 *                        (a browser's choice); false fails the exchange instead
 * @param maxRedirects    hops {@code followRedirects} follows before failing (JMeter's {@code httpsampler.max_redirects})
 */
public record ExchangeRequest(
        String method,
        URI uri,
        List<HeaderField> headers,
        byte[] body,
        ProtocolMode mode,
        Duration connectTimeout,
        Duration responseTimeout,
        boolean followRedirects,
        boolean acceptPush,
        int maxConnectionsPerOrigin,
        boolean alpnFallback,
        int maxRedirects) {

    /** What browsers open per origin over HTTP/1.1. */
    public static final int DEFAULT_MAX_CONNECTIONS = 6;

    /** JMeter's default {@code httpsampler.max_redirects}, which its HttpClient4 sampler applies. */
    public static final int DEFAULT_MAX_REDIRECTS = 20;

    public ExchangeRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(mode, "mode");
        headers = List.copyOf(headers);
        body = body == null ? new byte[0] : body;
        connectTimeout = connectTimeout == null ? Duration.ZERO : connectTimeout;
        responseTimeout = responseTimeout == null ? Duration.ZERO : responseTimeout;
        maxConnectionsPerOrigin = Math.max(1, maxConnectionsPerOrigin);
        maxRedirects = Math.max(0, maxRedirects);
    }

    /** A request that follows at most {@link #DEFAULT_MAX_REDIRECTS} hops when it follows redirects. */
    public ExchangeRequest(String method, URI uri, List<HeaderField> headers, byte[] body, ProtocolMode mode,
                           Duration connectTimeout, Duration responseTimeout, boolean followRedirects, boolean acceptPush,
                           int maxConnectionsPerOrigin, boolean alpnFallback) {
        this(method, uri, headers, body, mode, connectTimeout, responseTimeout, followRedirects, acceptPush,
                maxConnectionsPerOrigin, alpnFallback, DEFAULT_MAX_REDIRECTS);
    }

    /** A plain GET with no extra headers: what tests and embedded resources mostly need. */
    public static ExchangeRequest get(URI uri, ProtocolMode mode) {
        return new ExchangeRequest("GET", uri, List.of(), null, mode, Duration.ZERO, Duration.ZERO, false, true, DEFAULT_MAX_CONNECTIONS, false);
    }

    public ExchangeRequest withTimeouts(Duration connect, Duration response) {
        return new ExchangeRequest(method, uri, headers, body, mode, connect, response, followRedirects, acceptPush, maxConnectionsPerOrigin, alpnFallback, maxRedirects);
    }

    public ExchangeRequest withAcceptPush(boolean accept) {
        return new ExchangeRequest(method, uri, headers, body, mode, connectTimeout, responseTimeout, followRedirects, accept, maxConnectionsPerOrigin, alpnFallback, maxRedirects);
    }

    public ExchangeRequest withMaxConnectionsPerOrigin(int max) {
        return new ExchangeRequest(method, uri, headers, body, mode, connectTimeout, responseTimeout, followRedirects, acceptPush, max, alpnFallback, maxRedirects);
    }

    /** The next hop of a redirect: another method, URI, headers and body, everything else kept. */
    public ExchangeRequest redirected(String newMethod, URI newUri, List<HeaderField> newHeaders, byte[] newBody) {
        return new ExchangeRequest(newMethod, newUri, newHeaders, newBody, mode, connectTimeout, responseTimeout, false, acceptPush, maxConnectionsPerOrigin, alpnFallback, maxRedirects);
    }

    public ExchangeRequest withAlpnFallback(boolean fallback) {
        return new ExchangeRequest(method, uri, headers, body, mode, connectTimeout, responseTimeout, followRedirects, acceptPush,
                maxConnectionsPerOrigin, fallback, maxRedirects);
    }

    /** The same request in another protocol (HTTP/3 by Alt-Svc: the first request goes over TCP). */
    public ExchangeRequest withMode(ProtocolMode newMode) {
        return new ExchangeRequest(method, uri, headers, body, newMode, connectTimeout, responseTimeout, followRedirects, acceptPush,
                maxConnectionsPerOrigin, alpnFallback, maxRedirects);
    }

    public ExchangeRequest withHeaders(List<HeaderField> newHeaders) {
        return new ExchangeRequest(method, uri, newHeaders, body, mode, connectTimeout, responseTimeout, followRedirects, acceptPush, maxConnectionsPerOrigin, alpnFallback, maxRedirects);
    }
}
