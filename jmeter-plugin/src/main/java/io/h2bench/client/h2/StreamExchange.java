package io.h2bench.client.h2;

import io.h2bench.client.connect.PushSafeConnectionOverHTTP2;
import io.h2bench.client.exchange.EarlyResponse;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.wire.WireConnection;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.HTTP2Stream;
import org.eclipse.jetty.http2.RetryableStreamException;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PushPromiseFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * One exchange on an HTTP/2 stream that the sampler opens itself on a user's session
 * ({@link DirectSessions}), with Jetty's HTTP/2 session and stream API: the request's frames as
 * Jetty's {@code HttpClient} would write them, and the stream's events handed to the same
 * {@link ExchangeRecorder} the client's listener feeds, so both paths measure alike. A pushed stream
 * promised on it gets an exchange of its own ({@link #pushed}).
 */
final class StreamExchange implements Stream.Listener, Invocable {

    /** What Jetty's client adds to a request with a body and no Content-Type (its BytesRequestContent's). */
    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    private final ExchangeRequest request;
    private final ExchangeRecorder recorder;
    private final Ending ending;
    private final ExchangeSides sides = new ExchangeSides(this::bothEnded);
    private volatile Stream stream;
    /** HttpClient's connection of the session the stream is on, which knows the server's GOAWAY; or null. */
    private volatile PushSafeConnectionOverHTTP2 connection;
    private volatile boolean opened;
    private volatile ExchangeRecorder.ResponseHead head;

    /** What the session's owner learns at the end of the exchange (slot freed, session to forget). */
    interface Ending {
        /** The stream ended; {@code sessionUnusable}: the session must carry nothing new. */
        void ended(StreamExchange exchange, boolean sessionUnusable);

        /** The stream could not be opened: nothing went out, the request may go another way. */
        void notOpened(StreamExchange exchange, Throwable why);
    }

    StreamExchange(ExchangeRequest request, ExchangeRecorder recorder, Ending ending) {
        this.request = request;
        this.recorder = recorder;
        this.ending = ending;
    }

    ExchangeRequest request() {
        return request;
    }

    /** Given a stream slot of its session ({@link #open}), not waiting for one. */
    boolean opened() {
        return opened;
    }

    /** Ended (answered, failed or aborted). */
    boolean finished() {
        return sides.finished();
    }

    CompletableFuture<ExchangeResult> result() {
        return recorder.result();
    }

    /** The stream was never opened: {@code other}, the request sent another way, gives the result. */
    void handOver(CompletableFuture<ExchangeResult> other) {
        recorder.handOver(other);
    }

    /**
     * Opens the stream on {@code session} and writes the request; the connection is {@code wire}, and
     * {@code client} is HttpClient's connection of the session.
     */
    void open(HTTP2Session session, WireConnection wire, org.eclipse.jetty.client.Connection client) {
        opened = true;
        connection = client instanceof PushSafeConnectionOverHTTP2 pushSafe ? pushSafe : null;
        recorder.attach(wire, true);
        HTTP2Stream.FrameList frames = frames(request);
        session.newStream(frames, new Promise<>() {
            @Override
            public void succeeded(Stream opened) {
                stream = opened;
                recorder.requestWritten();
                recorder.activity();
                // The socket's byte counts include the request only once its write has returned.
                sides.requestEnded();
                if (unprocessed(opened)) {
                    // Opened as the GOAWAY arrived, after Jetty failed the streams above its last id: the
                    // server will answer neither this stream nor, once it has closed, its reset.
                    opened.reset(new ResetFrame(opened.getId(), ErrorCode.CANCEL_STREAM_ERROR.code), Callback.NOOP);
                    fail(new RetryableStreamException(), true);
                }
            }

            @Override
            public void failed(Throwable failure) {
                if (stream == null) {
                    ending.notOpened(StreamExchange.this, failure);
                } else if (unprocessed(stream)) {
                    // Created as the GOAWAY arrived, its HEADERS not written: no answer will come.
                    fail(retryable(failure), true);
                } else {
                    // The request side ended early; the response decides (EarlyResponse, RFC 9113 8.1):
                    // a server may answer a POST before reading its body, then reset the stream.
                    sides.requestEnded();
                }
            }
        }, this);
    }

    /** Ends the exchange now with {@code failure} (response timeout, the stop button) and resets the stream. */
    void abort(Throwable failure) {
        Stream current = stream;
        if (current != null && !current.isClosed()) {
            current.reset(new ResetFrame(current.getId(), ErrorCode.CANCEL_STREAM_ERROR.code), Callback.NOOP);
        }
        fail(failure, false);
    }

    @Override
    public void onNewStream(Stream created) {
        stream = created;
    }

    @Override
    public void onHeaders(Stream from, HeadersFrame frame) {
        MetaData metaData = frame.getMetaData();
        if (metaData instanceof MetaData.Response response) {
            if (response.getStatus() >= 200 || response.getStatus() == 101) {
                recorder.responseBegun();
                head = new ExchangeRecorder.ResponseHead(response.getStatus(), response.getReason(),
                        HttpVersion.HTTP_2, response.getHttpFields());
                recorder.responseHeaders(response.getStatus(), HttpVersion.HTTP_2, response.getHttpFields());
            }
        }
        // Interim responses (1xx) and trailers carry no content of the exchange's own. A HEAD response
        // has none either (RFC 9110 9.3.2), but h2o ends its stream with an empty DATA frame after
        // HEADERS announcing the GET's content-length, and such an exchange waited here for the
        // response timeout (Jetty 12.1.14): it ends at the final HEADERS, as ExchangeRecorder ends HttpClient's.
        if (frame.isEndStream() || headResponse(metaData)) {
            sides.responseEnded();
        } else {
            from.demand();
        }
    }

    private boolean headResponse(MetaData metaData) {
        return ending != NO_SLOT && "HEAD".equalsIgnoreCase(request.method())
                && metaData instanceof MetaData.Response response && response.getStatus() >= 200;
    }

    @Override
    public void onDataAvailable(Stream from) {
        while (true) {
            Stream.Data data = from.readData();
            if (data == null) {
                from.demand();
                return;
            }
            DataFrame frame = data.frame();
            ByteBuffer content = frame.getByteBuffer();
            if (content.hasRemaining()) {
                recorder.responseContent(content);
            }
            data.release();
            if (frame.isEndStream()) {
                sides.responseEnded();
                return;
            }
        }
    }

    @Override
    public Stream.Listener onPush(Stream pushedStream, PushPromiseFrame frame) {
        if (!request.acceptPush()) {
            pushedStream.reset(new ResetFrame(pushedStream.getId(), ErrorCode.REFUSED_STREAM_ERROR.code), Callback.NOOP);
            return null;
        }
        URI uri = frame.getMetaData().getHttpURI().toURI();
        StreamExchange push = new StreamExchange(request, recorder.newPush(uri), NO_SLOT);
        push.sides.requestEnded(); // a pushed stream writes no request
        return push;
    }

    @Override
    public void onReset(Stream from, ResetFrame frame, Callback callback) {
        try {
            ErrorCode code = ErrorCode.from(frame.getError());
            String name = code == null ? "reset" : code.name().toLowerCase(Locale.ROOT);
            // RFC 9113 8.1: a whole response followed by RST_STREAM(NO_ERROR) is a response (EarlyResponse).
            if (sides.responseWhole() || code == ErrorCode.NO_ERROR && EarlyResponse.whole(head, recorder.bodySize())) {
                // The response is whole: the reset only ended the request side.
                sides.requestEnded();
                sides.responseEnded();
            } else if (unprocessed(from)) {
                // Apache httpd resets (CANCEL) a stream that came after its GOAWAY: still one it did not process.
                fail(retryable(new IOException(name)), true);
            } else {
                fail(new IOException(name), code == ErrorCode.REFUSED_STREAM_ERROR);
            }
        } finally {
            callback.succeeded();
        }
    }

    @Override
    public void onIdleTimeout(Stream from, TimeoutException timeout, Promise<Boolean> promise) {
        fail(timeout, false);
        promise.succeeded(true);
    }

    @Override
    public void onFailure(Stream from, int error, String reason, Throwable failure, Callback callback) {
        try {
            // A GOAWAY's streams above its last stream id fail with Jetty's RetryableStreamException,
            // which UnprocessedRequests sends again: the session takes nothing new after a GOAWAY.
            Throwable cause = failure == null ? new IOException(reason) : failure;
            fail(unprocessed(from) ? retryable(cause) : cause, true);
        } finally {
            callback.succeeded();
        }
    }

    @Override
    public InvocationType getInvocationType() {
        // Never blocks: the recorder only takes times and copies bytes.
        return InvocationType.NON_BLOCKING;
    }

    /** Whether the server's GOAWAY says it did not process {@code current} (RFC 9113 6.8). */
    private boolean unprocessed(Stream current) {
        PushSafeConnectionOverHTTP2 client = connection;
        return client != null && current != null && client.unprocessed(current.getId());
    }

    /** {@code cause} as the failure UnprocessedRequests sends again, unless it is one already. */
    private static Throwable retryable(Throwable cause) {
        if (cause instanceof RetryableStreamException) {
            return cause;
        }
        RetryableStreamException retryable = new RetryableStreamException();
        retryable.initCause(cause);
        return retryable;
    }

    /** Both sides ended: the exchange succeeds. */
    private void bothEnded(long responseEndNanos) {
        recorder.completed(head, null, responseEndNanos);
        ending.ended(this, false);
    }

    private void fail(Throwable failure, boolean sessionUnusable) {
        if (sides.end()) {
            recorder.completed(head, failure);
            ending.ended(this, sessionUnusable);
        }
    }

    /** The frames Jetty's {@code HttpClient} writes for this request (its normalizeRequest and HttpSenderOverHTTP2). */
    private static HTTP2Stream.FrameList frames(ExchangeRequest request) {
        MetaData.Request metaData = requestMetaData(request);
        byte[] body = request.body();
        if (body.length == 0) {
            return new HTTP2Stream.FrameList(new HeadersFrame(metaData, null, true));
        }
        return new HTTP2Stream.FrameList(new HeadersFrame(metaData, null, false),
                new DataFrame(ByteBuffer.wrap(body), true), null);
    }

    /** The request's HEADERS as Jetty's {@code HttpClient} makes them for HTTP/2; its body goes in DATA frames. */
    static MetaData.Request requestMetaData(ExchangeRequest request) {
        URI uri = request.uri();
        byte[] body = request.body();
        HttpFields.Mutable fields = HttpFields.build();
        for (HeaderField field : request.headers()) {
            if (!HeaderField.CONNECTION_HEADERS.contains(field.name().toLowerCase(Locale.ROOT))) {
                fields.add(field.name(), field.value());
            }
        }
        if (body.length > 0) {
            if (!fields.contains(HttpHeader.CONTENT_TYPE)) {
                fields.add(HttpHeader.CONTENT_TYPE, DEFAULT_CONTENT_TYPE);
            }
            fields.add(new HttpField.LongValueHttpField(HttpHeader.CONTENT_LENGTH, body.length));
        } else {
            // RFC 9110 section 10.1.1: no Expect without content.
            fields.remove(HttpHeader.EXPECT);
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        HttpURI target = HttpURI.build().scheme(uri.getScheme()).host(uri.getHost()).port(uri.getPort())
                .path(path).query(uri.getRawQuery());
        return new MetaData.Request(request.method(), target, HttpVersion.HTTP_2, fields, -1);
    }

    /** A pushed stream takes no slot of the session's. */
    private static final Ending NO_SLOT = new Ending() {
        @Override
        public void ended(StreamExchange exchange, boolean sessionUnusable) {
        }

        @Override
        public void notOpened(StreamExchange exchange, Throwable why) {
        }
    };
}
