package io.h2bench.server.h3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
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
 * New QUIC connections the server makes to its own h3 listener before it says it is ready, as the
 * TCP listeners' warm-up ({@code WarmUp}) makes TCP ones: each a full handshake and the requests
 * {@code WarmUp} asks for (more than over TCP: each runs the codec's per-request code once), so that the JIT has compiled Netty's QUIC and HTTP/3 codecs and the
 * listener's glue before the first client comes. Without it, a fresh server took 243 ms on
 * loopback to answer its first h3 connection, and 4-6 ms from a request on a reused connection to
 * its response where ngtcp2's gtlsserver took 1 (2026-11-30): behind the 100 ms link, warm 44 kB
 * came out 1.06 of gtlsserver (issue 38).
 *
 * <p>Each connection has a UDP socket of its own, from the {@link DatagramOpener} (inside the kernel
 * link's namespace when there is one, as the TCP warm-up's sockets), so no emulated network slows
 * it and no link counter sees it. The qlogs the listener wrote for these connections are deleted
 * on {@link #close()}: a user's {@code --qlog-dir} holds the user's connections only.
 */
public final class Http3WarmUp implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 10;
    private static final long WINDOW = 8L * 1024 * 1024;

    /** A UDP socket, not connected, from which the listener is reachable. */
    public interface DatagramOpener {
        DatagramChannel open() throws IOException;
    }

    private final InetSocketAddress listener;
    private final DatagramOpener opener;
    private final Path qlogDirectory;
    private final Set<Path> qlogsBefore;
    private final QuicSslContext tls = QuicSslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
            .applicationProtocols("h3").build();
    private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("h2bench-h3-warm-up", true),
            NioIoHandler.newFactory());

    /**
     * A warm-up of the h3 listener at {@code listener} (an address it answers on), whose qlogs go to
     * {@code qlogDirectory} (null: none).
     */
    public Http3WarmUp(InetSocketAddress listener, DatagramOpener opener, Path qlogDirectory) {
        this.listener = listener;
        this.opener = opener;
        this.qlogDirectory = qlogDirectory;
        this.qlogsBefore = qlogs();
    }

    /** One new connection: its handshake, then {@code paths} at once, each read to its end; then closed. */
    public void connect(List<String> paths) throws IOException {
        DatagramChannel socket = opener.open();
        Channel udp = null;
        try {
            var codec = Http3.newQuicClientCodecBuilder().sslContext(tls)
                    .maxIdleTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .initialMaxData(WINDOW)
                    .initialMaxStreamDataBidirectionalLocal(WINDOW)
                    .build();
            udp = new Bootstrap().group(loop).channelFactory(() -> new NioDatagramChannel(socket)).handler(codec)
                    .register().sync().channel();
            QuicChannel quic = (QuicChannel) QuicChannel.newBootstrap(udp).handler(new Http3ClientConnectionHandler())
                    .remoteAddress(listener).connect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            try {
                String authority = listener.getHostString() + ":" + listener.getPort();
                List<CompletableFuture<Void>> responses = paths.stream().map(path -> request(quic, authority, path)).toList();
                CompletableFuture.allOf(responses.toArray(CompletableFuture[]::new)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } finally {
                quic.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during the h3 warm-up", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IOException("h3 warm-up connection to " + listener + " failed: " + cause, cause);
        } finally {
            if (udp != null) {
                udp.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } else {
                socket.close();
            }
        }
    }

    /** A GET of {@code path} ending its stream with the HEADERS; completes when the response's last byte came. */
    private static CompletableFuture<Void> request(QuicChannel quic, String authority, String path) {
        Response response = new Response();
        Http3.newRequestStreamBootstrap(quic, response).create().addListener(created -> {
            if (!created.isSuccess()) {
                response.done.completeExceptionally(created.cause());
                return;
            }
            QuicStreamChannel stream = (QuicStreamChannel) created.getNow();
            DefaultHttp3HeadersFrame headers = new DefaultHttp3HeadersFrame();
            headers.headers().method("GET").scheme("https").authority(authority).path(path);
            stream.writeAndFlush(headers).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
        });
        return response.done;
    }

    /** Deletes the qlogs of the warm-up's connections and stops its event loop. */
    @Override
    public void close() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        for (Path written : qlogs()) {
            if (!qlogsBefore.contains(written)) {
                try {
                    Files.deleteIfExists(written);
                } catch (IOException e) {
                    // a qlog left behind is the warm-up's, recognisable by its time; nothing else depends on it
                }
            }
        }
    }

    /** The files in the qlog directory; none when there is none or it cannot be listed. */
    private Set<Path> qlogs() {
        if (qlogDirectory == null || !Files.isDirectory(qlogDirectory)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(qlogDirectory)) {
            return files.collect(Collectors.toSet());
        } catch (IOException | UncheckedIOException e) {
            return Set.of();
        }
    }

    /** One response, read to its end; its bytes are not looked at (the server did its work by sending them). */
    private static final class Response extends Http3RequestStreamInboundHandler {

        final CompletableFuture<Void> done = new CompletableFuture<>();

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
            ReferenceCountUtil.release(frame);
        }

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
            frame.release();
        }

        @Override
        protected void channelInputClosed(ChannelHandlerContext ctx) {
            done.complete(null);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            done.completeExceptionally(new IOException("the h3 listener closed the stream before the response ended"));
            super.channelInactive(ctx);
        }
    }
}
