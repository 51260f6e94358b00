package io.h2bench.client.h3;

import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.wire.WireConnection;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamLimitChangedEvent;
import io.netty.handler.codec.quic.QuicStreamType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One user's QUIC connection to one origin, on a UDP socket of its own (as a browser opens one per
 * connection): its handshake and datagrams, reported to its {@link WireConnection} (through
 * {@link DatagramLedger}) as a TCP connection's socket reports them, and its request streams, opened
 * as the server's stream limit allows and queued beyond it (a page of more resources than the limit).
 */
final class QuicConnection {

    /** Apart from the TCP connections' ids (WireRegistry counts from 1), so a waterfall never joins the two. */
    private static final AtomicLong IDS = new AtomicLong(1L << 40);

    private final WireConnection wire = WireConnection.overDatagrams(IDS.incrementAndGet());
    private final CompletableFuture<QuicChannel> ready = new CompletableFuture<>();
    /** Streams waiting for the server's stream limit; touched on the event loop only. */
    private final Queue<Http3Exchange> waiting = new ArrayDeque<>();
    private final String origin;
    private volatile Channel udp;
    private volatile QuicChannel quic;

    /**
     * The UDP socket's receive buffer as Chrome asks for it (kQuicSocketReceiveBufferSize, 1 MiB, in
     * net/quic/quic_context.h; the kernel caps both at net.core.rmem_max). With the kernel's default
     * (208 KiB here) a warm connection's burst of seed 000's page overflowed it: 21 datagrams dropped
     * in 11 loads behind a 100 ms link, each a loss recovery Chrome did not pay; none with 1 MiB.
     */
    private static final int SOCKET_RECEIVE_BUFFER = 1024 * 1024;

    private QuicConnection(String origin) {
        this.origin = origin;
    }

    /**
     * Starts the handshake with {@code remote} from {@code local} (any address when null), naming
     * {@code host} in SNI, announcing {@code parameters}; {@code connectTimeoutMillis} limits the
     * handshake (0: QUIC's idle timeout does).
     */
    static QuicConnection open(QuicTransport transport, InetSocketAddress remote, InetAddress local, String host,
                               BrowserPreset.Http3 parameters, long connectTimeoutMillis) {
        QuicConnection connection = new QuicConnection(host + ":" + remote.getPort());
        Bootstrap bootstrap = new Bootstrap().group(transport.loops()).channel(NioDatagramChannel.class)
                .option(ChannelOption.SO_RCVBUF, SOCKET_RECEIVE_BUFFER)
                .handler(new ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel channel) {
                        // The ledger first: it sees the datagrams the codec reads and writes, and no datagram read again.
                        channel.pipeline().addLast(new PortUnreachable(connection), new DatagramLedger(connection.wire),
                                new ConnectAtFinished(connection.ready), transport.newCodec(host, remote.getPort(), parameters));
                    }
                });
        // Connected, as a browser's QUIC socket is: the kernel then reports an ICMP port unreachable
        // (no UDP listener there) as an error on the socket, and the sample fails at once, not at its timeout.
        ChannelFuture bound = bootstrap.connect(remote, new InetSocketAddress(local, 0));
        bound.addListener(done -> {
            if (!done.isSuccess()) {
                connection.ready.completeExceptionally(done.cause());
                return;
            }
            connection.udp = bound.channel();
            connection.handshake(remote, connectTimeoutMillis);
        });
        return connection;
    }

    /** The application protocol the handshake agreed on, as the TCP engines report ALPN's. */
    private static String negotiated(QuicChannel quic) {
        String protocol = quic.sslEngine() == null ? null : quic.sslEngine().getApplicationProtocol();
        return protocol == null || protocol.isEmpty() ? null : protocol;
    }

    private void handshake(InetSocketAddress remote, long connectTimeoutMillis) {
        QuicChannel.newBootstrap(udp)
                // It also takes the server's control and QPACK streams: no stream handler of our own.
                .handler(new Http3ClientConnectionHandler())
                .remoteAddress(remote)
                .connect()
                .addListener(done -> {
                    if (done.isSuccess()) {
                        quic = (QuicChannel) done.getNow();
                        wire.handshakeDone(negotiated(quic));
                        quic.pipeline().addLast(new StreamLimitWatcher());
                        ready.complete(quic);
                    } else {
                        ready.completeExceptionally(done.cause());
                        udp.close();
                    }
                });
        if (connectTimeoutMillis > 0) {
            udp.eventLoop().schedule(() -> {
                if (ready.completeExceptionally(new QuicConnectTimeoutException(origin, connectTimeoutMillis))) {
                    udp.close();
                }
            }, connectTimeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** What went on this connection's socket, and when: its exchanges' times and bytes come from it. */
    WireConnection wire() {
        return wire;
    }


    CompletableFuture<QuicChannel> ready() {
        return ready;
    }

    /** Open or opening, not yet closed: a new request may use it. */
    boolean usable() {
        if (!ready.isDone()) {
            return true;
        }
        QuicChannel channel = quic;
        return channel != null && channel.isActive();
    }

    /** Opens a request stream for {@code exchange} now, or when the server's stream limit allows. */
    void openStream(Http3Exchange exchange) {
        QuicChannel channel = quic;
        channel.eventLoop().execute(() -> {
            waiting.add(exchange);
            drain();
        });
    }

    private void drain() {
        QuicChannel channel = quic;
        while (!waiting.isEmpty() && channel.isActive() && channel.peerAllowedStreams(QuicStreamType.BIDIRECTIONAL) > 0) {
            Http3Exchange next = waiting.poll();
            Http3.newRequestStream(channel, next).addListener(done -> {
                if (done.isSuccess()) {
                    QuicStreamChannel stream = (QuicStreamChannel) done.getNow();
                    next.streamOpened(stream);
                } else {
                    next.fail(done.cause());
                }
            });
        }
        if (!channel.isActive()) {
            Http3Exchange dropped;
            while ((dropped = waiting.poll()) != null) {
                dropped.fail(new java.nio.channels.ClosedChannelException());
            }
        }
    }

    /** Closes the connection (CONNECTION_CLOSE), then its socket. */
    void close() {
        ready.completeExceptionally(new java.nio.channels.ClosedChannelException());
        QuicChannel channel = quic;
        Channel socket = udp;
        if (channel != null) {
            channel.close().addListener(done -> socket.close());
        } else if (socket != null) {
            socket.close();
        }
    }

    /** Opens the queued streams when the server raises its limit (MAX_STREAMS) or the connection ends. */
    private final class StreamLimitWatcher extends ChannelInboundHandlerAdapter {

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof QuicStreamLimitChangedEvent) {
                drain();
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            drain();
            super.channelInactive(ctx);
        }
    }

    /** An ICMP port unreachable for the connected socket: nothing listens on the server's UDP port. */
    private static final class PortUnreachable extends ChannelInboundHandlerAdapter {

        private final QuicConnection connection;

        PortUnreachable(QuicConnection connection) {
            this.connection = connection;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
            if (cause instanceof PortUnreachableException
                    && connection.ready.completeExceptionally(new NoQuicListenerException(connection.origin, cause))) {
                ctx.close();
                return;
            }
            super.exceptionCaught(ctx, cause);
        }
    }

    /** The server's host answered the first Initial with an ICMP port unreachable. */
    static final class NoQuicListenerException extends java.io.IOException {

        private static final long serialVersionUID = 1L;

        NoQuicListenerException(String origin, Throwable cause) {
            super("nothing listens on UDP at " + origin + " (the host answered ICMP port unreachable): no HTTP/3 there", cause);
        }
    }

    /** The handshake did not complete within the plan's connect timeout. */
    static final class QuicConnectTimeoutException extends java.io.IOException {

        private static final long serialVersionUID = 1L;

        QuicConnectTimeoutException(String origin, long millis) {
            super("QUIC handshake with " + origin + " did not complete within the connect timeout of " + millis + " ms");
        }
    }
}
