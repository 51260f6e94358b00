package io.h2bench.client.exchange;

import org.eclipse.jetty.http.HttpHeader;

/**
 * RFC 9113 section 8.1: a server may send a complete response before it has read the whole request
 * (a 302 or 413 to a large POST), then reset the stream with NO_ERROR; "clients MUST NOT discard
 * responses as a result of receiving such a RST_STREAM". Such a result is a success when its
 * response is whole (Jetty 12.1.14's own client reported it as a failure).
 */
public final class EarlyResponse {

    private EarlyResponse() {
    }

    /**
     * A response that a stream reset with NO_ERROR ended (the sampler's own streams): whole when its
     * headers came and Content-Length says every byte of its body did.
     */
    public static boolean whole(ExchangeRecorder.ResponseHead head, long bodyBytes) {
        if (head == null) {
            return false;
        }
        long declared = head.fields().getLongField(HttpHeader.CONTENT_LENGTH);
        return declared >= 0 && declared == bodyBytes;
    }
}
