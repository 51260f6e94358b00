package io.h2bench.server;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.DefaultHttp3UnknownFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * A low-level HTTP/3 client (Netty's, on quiche) for the h3 listener on 127.0.0.1, trusting any
 * certificate: it sends frames as the test says, such as a request's FIN long after its HEADERS, or
 * requests whose responses it never reads, which no ordinary client does on purpose.
 */
public final class RawH3Client implements AutoCloseable {

    private static final long WINDOW = 8L * 1024 * 1024;
    /** RFC 9218's PRIORITY_UPDATE frame type for a request stream; Netty writes it as an unknown frame. */
    private static final long PRIORITY_UPDATE = 0xf0700;

    private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("raw-h3-client", true),
            NioIoHandler.newFactory());
    private final QuicSslContext tls = QuicSslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
            .applicationProtocols(Http3.supportedApplicationProtocols()).build();
    private final long responseWindow;

    private RawH3Client(long responseWindow) {
        this.responseWindow = responseWindow;
    }

    public static RawH3Client start() {
        return new RawH3Client(WINDOW);
    }

    /**
     * A client that lets the server send only {@code responseWindow} bytes on each request stream
     * until it reads them (QUIC's initial_max_stream_data_bidi_local).
     */
    static RawH3Client startWithResponseWindow(long responseWindow) {
        return new RawH3Client(responseWindow);
    }

    /** A GET of {@code uri}, with no fields of its own. */
    public static Request get(URI uri) {
        return new Request("GET", uri, Map.of());
    }

    /** A new QUIC connection (on a UDP socket of its own) to the h3 listener on {@code port}. */
    CompletableFuture<Connection> connect(int port) {
        return connect("127.0.0.1", port);
    }

    /** A new QUIC connection to the h3 listener at {@code host} (behind a kernel link, the link's server address). */
    public CompletableFuture<Connection> connect(String host, int port) {
        CompletableFuture<Connection> connected = new CompletableFuture<>();
        var codec = Http3.newQuicClientCodecBuilder().sslContext(tls)
                .maxIdleTimeout(30, TimeUnit.SECONDS)
                .initialMaxData(WINDOW * 4)
                .initialMaxStreamDataBidirectionalLocal(responseWindow)
                .build();
        new Bootstrap().group(loop).channel(NioDatagramChannel.class).handler(codec).bind(0).addListener(bound -> {
            if (!bound.isSuccess()) {
                connected.completeExceptionally(bound.cause());
                return;
            }
            Channel udp = ((io.netty.channel.ChannelFuture) bound).channel();
            QuicChannel.newBootstrap(udp).handler(new Http3ClientConnectionHandler())
                    .remoteAddress(new InetSocketAddress(host, port)).connect().addListener(done -> {
                        if (done.isSuccess()) {
                            connected.complete(new Connection((QuicChannel) done.getNow(), udp));
                        } else {
                            connected.completeExceptionally(done.cause());
                            udp.close();
                        }
                    });
        });
        return connected;
    }

    @Override
    public void close() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    public record Request(String method, URI uri, Map<String, String> fields) {

        /** This request with a field of its own, such as RFC 9218's {@code priority}. */
        public Request with(String name, String value) {
            Map<String, String> more = new LinkedHashMap<>(fields);
            more.put(name, value);
            return new Request(method, uri, more);
        }
    }

    /** One QUIC connection. */
    public static final class Connection {

        private final QuicChannel quic;
        private final Channel udp;

        private Connection(QuicChannel quic, Channel udp) {
            this.quic = quic;
            this.udp = udp;
        }

        /** Ends the connection with a CONNECTION_CLOSE, as a client done with it. */
        public void close() {
            quic.close().syncUninterruptibly();
        }

        /** Closes the UDP socket under the connection: the server hears nothing more, not even an ACK. */
        void abandon() {
            udp.close().syncUninterruptibly();
        }

        /**
         * Sends RFC 9218's PRIORITY_UPDATE (§7.1) on the client's control stream: request stream
         * {@code streamId} (opened or still to come) gets the priority of {@code field}, such as {@code u=0}.
         */
        public void priorityUpdate(long streamId, String field) {
            ByteBuf payload = Unpooled.buffer();
            payload.writeInt(0x8000_0000 | (int) streamId); // a 4-byte QUIC varint (RFC 9000 §16)
            payload.writeCharSequence(field, StandardCharsets.US_ASCII);
            // on the event loop: the control stream is made there once the connection is active
            quic.eventLoop().submit(() -> Http3.getLocalControlStream(quic).writeAndFlush(new DefaultHttp3UnknownFrame(PRIORITY_UPDATE, payload)))
                    .syncUninterruptibly().getNow().syncUninterruptibly();
        }

        /** Sends {@code request}'s HEADERS, ending the request stream with them. */
        public Exchange request(Request request) {
            return send(request, new Exchange(false), true);
        }

        /**
         * Sends {@code request}'s HEADERS without ending the request stream, and ends it (an empty
         * STREAM frame with the FIN) as soon as the response's last byte has been read.
         */
        Exchange requestWithLateFin(Request request) {
            return send(request, new Exchange(true), true);
        }

        /** Sends {@code request}'s HEADERS, ending the stream, and never reads the response. */
        void requestNeverRead(Request request) {
            send(request, new Exchange(false), false);
        }

        /**
         * Sends {@code request}'s HEADERS, ending the stream, and reads nothing of the response until
         * {@link Exchange#startReading()}: the server may send no more than the client's response window.
         */
        Exchange requestReadLater(Request request) {
            return send(request, new Exchange(false), false);
        }

        private Exchange send(Request request, Exchange exchange, boolean read) {
            Http3.newRequestStreamBootstrap(quic, exchange).option(ChannelOption.AUTO_READ, read).create().addListener(created -> {
                if (!created.isSuccess()) {
                    exchange.response.completeExceptionally(created.cause());
                    return;
                }
                QuicStreamChannel stream = (QuicStreamChannel) created.getNow();
                DefaultHttp3HeadersFrame headers = new DefaultHttp3HeadersFrame();
                URI uri = request.uri();
                headers.headers().method(request.method()).scheme(uri.getScheme()).authority(uri.getRawAuthority())
                        .path(uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
                request.fields().forEach(headers.headers()::add);
                var written = stream.writeAndFlush(headers);
                if (!exchange.lateFin) {
                    written.addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
                }
                exchange.stream.complete(stream);
            });
            return exchange;
        }
    }

    /** One request stream: the response's status once its body has all arrived, and the late FIN if asked for. */
    public static final class Exchange extends Http3RequestStreamInboundHandler {

        private final boolean lateFin;
        private final CompletableFuture<Integer> response = new CompletableFuture<>();
        private final CompletableFuture<Integer> head = new CompletableFuture<>();
        private final CompletableFuture<Void> finSent = new CompletableFuture<>();
        private final CompletableFuture<QuicStreamChannel> stream = new CompletableFuture<>();
        private final AtomicLong bodyBytes = new AtomicLong();
        private volatile int status;

        private Exchange(boolean lateFin) {
            this.lateFin = lateFin;
        }

        /** The status, completed when the response's last byte has arrived. */
        public CompletableFuture<Integer> response() {
            return response;
        }

        /** The status, completed when the response's HEADERS have arrived, before any of its body. */
        public CompletableFuture<Integer> head() {
            return head;
        }

        /** The response body's bytes read so far. */
        public long bodyBytes() {
            return bodyBytes.get();
        }

        /** Reads the response from now on ({@link Connection#requestReadLater}), once its request has been sent. */
        void startReading() {
            stream.thenAccept(channel -> channel.config().setAutoRead(true));
        }

        /** Completed when the late FIN went out ({@link Connection#requestWithLateFin}). */
        CompletableFuture<Void> finSent() {
            return finSent;
        }

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
            if (status == 0) {
                status = Integer.parseInt(frame.headers().status().toString());
                head.complete(status);
            }
            ReferenceCountUtil.release(frame);
        }

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
            bodyBytes.addAndGet(frame.content().readableBytes());
            frame.release();
        }

        @Override
        protected void channelInputClosed(ChannelHandlerContext ctx) {
            if (lateFin) {
                // An empty QUIC STREAM frame with the FIN, as some clients end a request.
                ((QuicStreamChannel) ctx.channel()).shutdownOutput().addListener(done -> {
                    if (done.isSuccess()) {
                        finSent.complete(null);
                    } else {
                        finSent.completeExceptionally(done.cause());
                    }
                });
            }
            response.complete(status);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            response.completeExceptionally(new java.nio.channels.ClosedChannelException());
            head.completeExceptionally(new java.nio.channels.ClosedChannelException());
            super.channelInactive(ctx);
        }
    }
}
