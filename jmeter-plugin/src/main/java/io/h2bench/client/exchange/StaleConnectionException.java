package io.h2bench.client.exchange;

import org.eclipse.jetty.io.EofException;

/**
 * A kept-alive HTTP/1.1 connection turned out closed by the server before any byte of the response to
 * the request sent on it: the server closed it while idle, and the request most likely never reached
 * it. An idempotent request so failed is sent once more on a new connection ({@code UnprocessedRequests}),
 * as browsers do (RFC 9110 section 9.2.2).
 */
public final class StaleConnectionException extends EofException {

    public StaleConnectionException(Throwable cause) {
        super("the server had closed the kept-alive connection before this request reached it (" + cause.getMessage() + ")");
        initCause(cause);
    }
}
