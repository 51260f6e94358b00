package io.h2bench.client.h3;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicStreamChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request and its response on a request stream of a {@link QuicConnection}, timed as the TCP
 * exchanges are: latency at the response's HEADERS frame, elapsed at the stream's end (the last body
 * byte), connect time the QUIC handshake (TLS included) when this exchange opened the connection,
 * and the same time as its TLS handshake: QUIC has no TCP connect before TLS.
 */
final class Http3Exchange extends Http3RequestStreamInboundHandler {

    /** Connection-specific headers HTTP/3 forbids (RFC 9114 4.2); the stream carries the framing. */
    private static final Set<String> CONNECTION_HEADERS = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade", "content-length", "host", "te");

    private final ExchangeRequest request;
    private final QuicConnection connection;
    private final boolean newConnection;
    private final long startMillis = System.currentTimeMillis();
    private final long startNanos = System.nanoTime();
    private final CompletableFuture<ExchangeResult> result = new CompletableFuture<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final List<HeaderField> responseHeaders = new ArrayList<>();
    private volatile QuicStreamChannel stream;
    private volatile long connectNanos;
    private volatile long assignedNanos;
    private volatile long latencyNanos;
    private volatile long lastActivityNanos = startNanos;
    private int status;
    private long headerBytes;
    private long requestBytes;

    Http3Exchange(ExchangeRequest request, QuicConnection connection, boolean newConnection) {
        this.request = request;
        this.connection = connection;
        this.newConnection = newConnection;
    }

    CompletableFuture<ExchangeResult> result() {
        return result;
    }

    /** The connection is ready: takes its handshake time if this exchange opened it, and asks for a stream. */
    void connected() {
        connectNanos = connection.claimConnectNanos(startNanos);
        connection.openStream(this);
    }

    /** Writes the request on its stream: HEADERS, the body as one DATA frame; the last carries the stream's FIN. */
    void streamOpened(QuicStreamChannel opened) {
        stream = opened;
        assignedNanos = System.nanoTime() - startNanos;
        connection.ledger().begin();
        FinWithLastFrame fin = FinWithLastFrame.addTo(opened);
        DefaultHttp3HeadersFrame headers = new DefaultHttp3HeadersFrame();
        fillRequestHeaders(headers.headers());
        requestBytes = weight(headers.headers()) + request.body().length;
        if (request.body().length > 0) {
            opened.write(headers);
            fin.writeLast(opened, new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(request.body())));
        } else {
            fin.writeLast(opened, headers);
        }
        watchResponseTimeout();
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
        lastActivityNanos = System.nanoTime();
        Http3Headers headers = frame.headers();
        headerBytes += weight(headers);
        if (status != 0 && status >= 200) {
            return; // trailers: counted, not shown (as the TCP engines do)
        }
        CharSequence code = headers.status();
        status = code == null ? 0 : Integer.parseInt(code.toString());
        if (status >= 200) {
            latencyNanos = lastActivityNanos - startNanos;
            responseHeaders.clear();
            for (Map.Entry<CharSequence, CharSequence> header : headers) {
                if (header.getKey().charAt(0) != ':') {
                    responseHeaders.add(new HeaderField(header.getKey().toString(), header.getValue().toString()));
                }
            }
        }
    }

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
        lastActivityNanos = System.nanoTime();
        ByteBuf content = frame.content();
        byte[] chunk = new byte[content.readableBytes()];
        content.readBytes(chunk);
        body.write(chunk, 0, chunk.length);
        frame.release();
    }

    @Override
    protected void channelInputClosed(ChannelHandlerContext ctx) {
        if (status == 0) {
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
        long elapsed = System.nanoTime() - startNanos;
        long[] bytes = stream == null ? new long[] {0, 0} : connection.ledger().end(headerBytes + body.size(), requestBytes);
        String message = failure == null ? null : describe(failure);
        // Waiting for a stream the server's limit allows; the handshake is the connect time, not queueing.
        long queued = stream == null ? 0 : Math.max(0, assignedNanos - connectNanos);
        // QUIC's handshake is one, TLS inside it: all of the connect time is the TLS handshake's (sampler.md).
        result.complete(new ExchangeResult(request.method(), request.uri(), false, startMillis, startNanos, queued,
                connectNanos, connectNanos, latencyNanos == 0 ? elapsed : latencyNanos, elapsed, status, "", "HTTP/3",
                List.copyOf(responseHeaders), body.toByteArray(), body.size(), bytes[1], bytes[0], connection.id(),
                newConnection, "h3", message, failure, List.of()));
        return true;
    }

    private String describe(Throwable failure) {
        String what = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        URI uri = request.uri();
        return "HTTP/3 " + request.method() + " " + uri + " failed: " + what;
    }

    /** Fails the exchange after the plan's response timeout of silence, as the TCP engines do. */
    private void watchResponseTimeout() {
        long millis = request.responseTimeout().toMillis();
        if (millis <= 0) {
            return;
        }
        stream.eventLoop().schedule(new Runnable() {
            @Override
            public void run() {
                if (ended.get()) {
                    return;
                }
                long silentNanos = System.nanoTime() - lastActivityNanos;
                long limitNanos = TimeUnit.MILLISECONDS.toNanos(millis);
                if (silentNanos >= limitNanos) {
                    fail(new IOException("no response data for " + millis + " ms (response timeout)"));
                } else {
                    stream.eventLoop().schedule(this, limitNanos - silentNanos, TimeUnit.NANOSECONDS);
                }
            }
        }, millis, TimeUnit.MILLISECONDS);
    }

    /** A header block's size as text; QPACK sends less, which the connection's last exchange then carries. */
    private static long weight(Http3Headers headers) {
        long bytes = 0;
        for (Map.Entry<CharSequence, CharSequence> header : headers) {
            bytes += header.getKey().length() + header.getValue().length() + 2;
        }
        return bytes;
    }
}
