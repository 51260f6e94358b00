package io.h2bench.client;

import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.StaleConnectionException;
import java.io.IOException;
import org.eclipse.jetty.http2.RetryableStreamException;

/**
 * Requests an HTTP/2 server says it never processed, which a client may send again (RFC 9113 6.8:
 * streams above a GOAWAY's last stream id; 8.7: a stream reset with REFUSED_STREAM). The own HTTP/2
 * fails the first with a {@link RetryableStreamException} and the second with an IOException named
 * after the error code, as Jetty's client does, and sends neither again by itself. And idempotent HTTP/1.1 requests whose
 * kept-alive connection the server had closed ({@link StaleConnectionException}).
 */
final class UnprocessedRequests {

    private UnprocessedRequests() {
    }

    /** Why {@code first} may be sent once more, or null when the server may have processed it. */
    static String retryReason(ExchangeResult first) {
        if (!first.failed() || first.pushed()) {
            return null;
        }
        for (Throwable cause = first.failure(); cause != null; cause = cause.getCause()) {
            if (cause instanceof RetryableStreamException) {
                return "sent again on a new connection: the server's GOAWAY said it had not processed the first try";
            }
            if (cause instanceof StaleConnectionException) {
                return "sent again on a new connection: the server had closed the kept-alive connection before the first try reached it";
            }
            if (cause instanceof IOException && "refused_stream_error".equals(cause.getMessage())) {
                return "sent again on a new connection: the server refused the first try's stream (REFUSED_STREAM) before processing it";
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
