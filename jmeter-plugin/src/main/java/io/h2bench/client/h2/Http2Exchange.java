package io.h2bench.client.h2;

import io.h2bench.client.direct.ContinueWait;
import io.h2bench.client.direct.DirectExchange;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.wire.WireConnection;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Locale;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;

/**
 * One exchange on a stream of a connection the sampler drives itself ({@link Http2FrameConnection}):
 * the events of its frames handed to the same {@link ExchangeRecorder} calls, in the same order, as
 * the other engines make from their own (the own HTTP/1.1's parser, HTTP/3's stream), so every
 * engine measures alike. A pushed stream promised on it gets an exchange of its
 * own ({@link #pushed}). The stream's flow control state is here too; the connection reads and
 * writes it under its own lock.
 */
final class Http2Exchange extends DirectExchange {

    private final boolean pushed;
    private final ExchangeSides sides = new ExchangeSides(this::bothEnded);
    private volatile Http2FrameConnection connection;
    private volatile ExchangeRecorder.ResponseHead head;
    private volatile boolean resetByServer;

    // The stream, under its connection's lock.
    /** 0 until the stream is opened on a connection. */
    int streamId;
    /** The request body still to send, null when none is left. */
    ByteBuffer body;
    int sendWindow;
    /** Bytes consumed since the last WINDOW_UPDATE of this stream (Jetty's buffering strategy). */
    int receivedSinceUpdate;
    /** The server ended its side (END_STREAM or reset): no WINDOW_UPDATE for the stream any more. */
    boolean remotelyClosed;

    private Http2Exchange(ExchangeRequest request, ExchangeRecorder recorder, boolean pushed) {
        super(request, recorder);
        this.pushed = pushed;
    }

    Http2Exchange(ExchangeRequest request, ExchangeRecorder recorder) {
        this(request, recorder, false);
    }

    @Override
    public boolean finished() {
        // Handed over to HTTP/1.1 by ALPN: this one waits for nothing more (a connect timer stops).
        return sides.finished() || handedOver();
    }

    boolean pushed() {
        return pushed;
    }

    /** The stream is opened on {@code carrier}, which is {@code wire} on the socket; its HEADERS are queued. */
    void opened(Http2FrameConnection carrier, WireConnection wire) {
        connection = carrier;
        recorder.attach(wire, true);
    }

    /** The server upgraded to {@code carrier} the connection that sent this request over HTTP/1.1: its response is stream 1's. */
    void upgradedOn(Http2FrameConnection carrier) {
        connection = carrier;
        sides.requestEnded();
    }

    /** A stream promised on this exchange's: its response is recorded as a push of this one. */
    Http2Exchange pushed(URI uri, Http2FrameConnection carrier) {
        Http2Exchange push = new Http2Exchange(request, recorder.newPush(uri), true);
        push.connection = carrier;
        push.sides.requestEnded(); // a pushed stream writes no request
        return push;
    }

    /** The request's HEADERS as Jetty's {@code HttpClient} makes them for HTTP/2; its body goes in DATA frames. */
    MetaData.Request requestHeaders() {
        URI uri = request.uri();
        HttpFields.Mutable fields = HttpFields.build();
        for (HeaderField field : request.headers()) {
            if (!HeaderField.CONNECTION_HEADERS.contains(field.name().toLowerCase(Locale.ROOT))) {
                fields.add(field.name(), field.value());
            }
        }
        // Content-Length is among the connection headers left out above: the body's own goes in.
        addContentFields(fields);
        HttpURI target = HttpURI.build().scheme(uri.getScheme()).host(uri.getHost()).port(uri.getPort())
                .path(path()).query(uri.getRawQuery());
        return new MetaData.Request(request.method(), target, HttpVersion.HTTP_2, fields, -1);
    }

    /**
     * Its HEADERS (without END_STREAM) are in the write under way: true when the body waits for a 100
     * Continue ({@link ContinueWait}), and {@code sendBody} sends it when it may; false when it goes now.
     */
    boolean waitForContinue(Runnable sendBody) {
        ContinueWait wait = continueWait;
        if (wait == null) {
            return false;
        }
        wait.headersWritten(sendBody);
        return true;
    }

    /** The request's last frame is written. */
    @Override
    protected void requestWritten() {
        recorder.requestWritten();
        recorder.activity();
        // The socket's byte counts include the request only once its write has returned.
        sides.requestEnded();
    }

    void headers(MetaData metaData, boolean endStream) {
        if (sides.finished()) {
            return;
        }
        if (metaData instanceof MetaData.Response interim && interim.getStatus() == 100) {
            continued();
        }
        if (metaData instanceof MetaData.Response response && (response.getStatus() >= 200 || response.getStatus() == 101)) {
            finalResponseBegun(); // a body it skips: the stream is reset once the response is whole
            recorder.responseBegun();
            head = new ExchangeRecorder.ResponseHead(response.getStatus(), response.getReason(), HttpVersion.HTTP_2,
                    response.getHttpFields());
            recorder.responseHeaders(response.getStatus(), HttpVersion.HTTP_2, response.getHttpFields());
        }
        // Interim responses (1xx) and trailers carry no content of the exchange's own.
        if (endStream) {
            sides.responseEnded();
        }
    }

    void content(ByteBuffer content, boolean endStream) {
        if (sides.finished()) {
            return;
        }
        if (content.hasRemaining()) {
            recorder.responseContent(content);
        }
        if (endStream) {
            sides.responseEnded();
        }
    }

    /** The server reset the stream with {@code error}. */
    void reset(int error) {
        resetByServer = true;
        ErrorCode code = ErrorCode.from(error);
        String name = code == null ? "reset" : code.name().toLowerCase(Locale.ROOT);
        if (sides.responseWhole() || code == ErrorCode.NO_ERROR && wholeBeforeReset()) {
            // The response is whole: the reset only ended the request side.
            sides.requestEnded();
            sides.responseEnded();
        } else {
            fail(new IOException(name));
        }
    }

    /**
     * RFC 9113 section 8.1: a server may send a complete response before it has read the whole request
     * (a 302 or 413 to a large POST), then reset the stream with NO_ERROR; "clients MUST NOT discard
     * responses as a result of receiving such a RST_STREAM" (Jetty 12.1.14's own client reported one as
     * a failure). It is whole when its headers came and Content-Length says every byte of its body did.
     */
    private boolean wholeBeforeReset() {
        ExchangeRecorder.ResponseHead response = head;
        if (response == null) {
            return false;
        }
        long declared = response.fields().getLongField(HttpHeader.CONTENT_LENGTH);
        return declared >= 0 && declared == recorder.bodySize();
    }

    /** Ends the exchange now with {@code failure} (response timeout, the stop button) and cancels the stream. */
    @Override
    protected void abortHere(Throwable failure) {
        Http2FrameConnection carrier = connection;
        if (carrier != null && !sides.finished()) {
            carrier.cancel(this);
        }
        fail(failure);
    }

    @Override
    public void fail(Throwable failure) {
        endContinueWait();
        if (sides.end()) {
            recorder.completed(head, failure);
            ended();
        }
    }

    /** Both sides ended: the exchange succeeds. */
    private void bothEnded(long responseEndNanos) {
        Http2FrameConnection carrier = connection;
        if (bodySkipped() && !resetByServer && carrier != null) {
            carrier.cancel(this); // our side of the stream is still open, its body never to come
        }
        // The stream's slot first, so that the user's next request finds it free.
        ended();
        recorder.completed(head, null, responseEndNanos);
    }

    private void ended() {
        Http2FrameConnection carrier = connection;
        if (carrier != null) {
            carrier.ended(this);
        }
    }
}
