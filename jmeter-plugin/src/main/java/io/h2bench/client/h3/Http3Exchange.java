package io.h2bench.client.h3;

import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.wire.WireConnection;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicStreamChannel;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;

/**
 * One request and its response on a request stream of a {@link QuicConnection}, reported as the TCP
 * exchanges report theirs, to an {@link ExchangeRecorder}, which takes the times and byte counts
 * from these events and its connection's {@link WireConnection}: the stream opened on the connection
 * (it may have waited for the handshake and for the server's stream limit), the request written, the
 * final response's HEADERS frame, its DATA, the stream's end (the last body byte) or a failure.
 */
final class Http3Exchange extends Http3RequestStreamInboundHandler {

    /** Connection-specific headers HTTP/3 forbids (RFC 9114 4.2); the stream carries the framing. */
    private static final Set<String> CONNECTION_HEADERS = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade", "content-length", "host", "te");

    private final ExchangeRequest request;
    private final QuicConnection connection;
    private final ExchangeRecorder recorder;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile QuicStreamChannel stream;
    /** The final response's head once its HEADERS came, or null. */
    private volatile ExchangeRecorder.ResponseHead head;

    Http3Exchange(ExchangeRequest request, QuicConnection connection, ExchangeRecorder recorder) {
        this.request = request;
        this.connection = connection;
        this.recorder = recorder;
    }

    CompletableFuture<ExchangeResult> result() {
        return recorder.result();
    }

    /** The connection is ready: asks for a stream. */
    void connected() {
        connection.openStream(this);
    }

    /** Writes the request on its stream: HEADERS, the body as one DATA frame; the last carries the stream's FIN. */
    void streamOpened(QuicStreamChannel opened) {
        stream = opened;
        recorder.attach(connection.wire(), true);
        FinWithLastFrame fin = FinWithLastFrame.addTo(opened);
        DefaultHttp3HeadersFrame headers = new DefaultHttp3HeadersFrame();
        fillRequestHeaders(headers.headers());
        ChannelFuture written;
        if (request.body().length > 0) {
            opened.write(headers);
            written = fin.writeLast(opened, new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(request.body())));
        } else {
            written = fin.writeLast(opened, headers);
        }
        written.addListener(done -> {
            recorder.requestWritten();
            // The response timeout's silence starts again here, as on the TCP engines (ResponseWatchdog).
            recorder.activity();
        });
    }

    private void fillRequestHeaders(Http3Headers headers) {
        URI uri = request.uri();
        String authority = uri.getRawAuthority();
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        for (HeaderField field : request.headers()) {
            if (field.name().equalsIgnoreCase("host")) {
                authority = field.value();
            }
        }
        headers.method(request.method()).scheme("https").authority(authority).path(path);
        for (HeaderField field : request.headers()) {
            String name = field.name().toLowerCase(Locale.ROOT);
            if (!CONNECTION_HEADERS.contains(name)) {
                headers.add(name, field.value());
            }
        }
        if (request.body().length > 0) {
            headers.set("content-length", Integer.toString(request.body().length));
        }
    }

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
        recorder.activity();
        CharSequence code = frame.headers().status();
        int status = code == null ? 0 : Integer.parseInt(code.toString());
        if (head != null || status < 200) {
            return; // trailers, or an interim response: counted on the wire, not shown (as the TCP engines do)
        }
        recorder.responseBegun();
        HttpFields.Mutable fields = HttpFields.build();
        for (Map.Entry<CharSequence, CharSequence> header : frame.headers()) {
            if (header.getKey().charAt(0) != ':') {
                fields.add(header.getKey().toString(), header.getValue().toString());
            }
        }
        head = new ExchangeRecorder.ResponseHead(status, "", HttpVersion.HTTP_3, fields);
        recorder.responseHeaders(status, HttpVersion.HTTP_3, fields);
    }

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
        try {
            recorder.responseContent(frame.content().nioBuffer());
        } finally {
            frame.release();
        }
    }

    @Override
    protected void channelInputClosed(ChannelHandlerContext ctx) {
        if (head == null) {
            fail(new IOException("the server ended the stream without a response"));
        } else {
            end(null);
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        fail(new IOException("the stream was reset or its connection closed before the response ended"));
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause);
        ctx.close();
    }

    /**
     * Ends the exchange as failed (the first outcome counts) and cancels its stream if still open:
     * STOP_SENDING and RESET_STREAM with H3_REQUEST_CANCELLED (RFC 9114 4.1.1), as the h2 engine
     * resets with CANCEL. Closing the stream channel alone tells the server nothing: its response
     * went on arriving, in the next exchange's datagrams and unread in the connection's window.
     */
    void fail(Throwable cause) {
        if (end(cause)) {
            QuicStreamChannel open = stream;
            if (open != null && open.isActive()) {
                open.shutdown(Http3ErrorCode.H3_REQUEST_CANCELLED.code());
                open.close();
            }
        }
    }

    private boolean end(Throwable failure) {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        recorder.completed(head, failure);
        return true;
    }
}
