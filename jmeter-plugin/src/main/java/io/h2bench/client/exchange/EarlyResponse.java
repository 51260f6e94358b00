package io.h2bench.client.exchange;

import java.util.function.LongSupplier;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;

/**
 * RFC 9113 section 8.1: a server may send a complete response before it has read the whole request
 * (a 302 or 413 to a large POST), then reset the stream with NO_ERROR; "clients MUST NOT discard
 * responses as a result of receiving such a RST_STREAM". Jetty 12.1.14 reports it as a failure:
 * the reset aborts the request ({@code IOException: no_error}) and the request's pending DATA frames
 * are dropped ({@code EofException: dropped}). Such a result is a success when its response is whole.
 */
public final class EarlyResponse {

    private EarlyResponse() {
    }

    /**
     * The failure to report: none when the response arrived whole and only the request side failed.
     * The body length is asked for only when a NO_ERROR reset raced the end of the response.
     */
    static Throwable failureOf(Result result, LongSupplier bodyBytes) {
        Throwable failure = result.getFailure();
        Response response = result.getResponse();
        if (failure == null || response == null || response.getStatus() <= 0) {
            return failure;
        }
        if (result.getRequestFailure() != null && result.getResponseFailure() == null) {
            return null;
        }
        return isNoError(result.getResponseFailure()) && wholeBody(response, bodyBytes) ? null : failure;
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

    /** The reset raced the end of the response: still whole if Content-Length says every byte came. */
    private static boolean wholeBody(Response response, LongSupplier bodyBytes) {
        long declared = response.getHeaders().getLongField("Content-Length");
        return declared >= 0 && declared == bodyBytes.getAsLong();
    }

    private static boolean isNoError(Throwable failure) {
        return failure != null && "no_error".equals(failure.getMessage());
    }
}
