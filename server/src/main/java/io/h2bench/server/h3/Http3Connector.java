package io.h2bench.server.h3;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.AbstractNetworkConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ServerConnectionHandler;
import io.netty.handler.codec.quic.InsecureQuicTokenHandler;
import io.netty.handler.codec.quic.QLogConfiguration;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicChannelOption;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * HTTP/3 on Netty's QUIC (quiche inside), as a Jetty connector: Jetty starts, stops and lists it
 * beside the TCP listeners (so its {@code Alt-Svc} names it), and each request stream goes to the
 * server's one handler tree through a {@link RequestStream}. The QUIC connections live on one
 * event loop, and so do the handlers that block no thread (the others run on Jetty's).
 */
public final class Http3Connector extends AbstractNetworkConnector {

    private static final Logger QUIET = LoggerFactory.getLogger(Http3Connector.class);

    /** Streams a client may open at once, as the HTTP/2 listeners' SETTINGS_MAX_CONCURRENT_STREAMS. */
    static final int MAX_CONCURRENT_STREAMS = 128;
    private static final long CONNECTION_WINDOW = 16L * 1024 * 1024;
    private static final long STREAM_WINDOW = 1024 * 1024;
    static final long MAX_DATAGRAM = 1452;
    /** Room for a burst of datagrams from many clients (the kernel caps it at net.core.rmem_max, doubled). */
    private static final int SOCKET_BUFFER = 4 * 1024 * 1024;

    private final HttpConfiguration configuration;
    private final KeyManagerFactory keys;
    private final QuicOptions options;
    private EventLoopGroup loop;
    /** Each client address's QUIC connection, for the {@link Pacer}'s rate; kept only when the listener has one. */
    private final Map<InetSocketAddress, QuicChannel> connections = new ConcurrentHashMap<>();
    /**
     * Netty's own quiche needs the Java {@link Pacer}; h2bench's patched one gates its CUBIC and Reno itself. BBR
     * (quiche 0.29's gcongestion, not gated: its pacer only sets {@code send_info.at}, which Netty ignores) then goes
     * without the Java pacer too: at the client, a 2 MiB at 100 ms brought at most 50 datagrams within a millisecond,
     * 29 with the Java pacer (2026-11-29; the Java pacer also puts its hold into quiche's RTT samples).
     */
    private final boolean javaPacer;
    private volatile Channel udp;
    private volatile boolean segmented;

    /** A connector serving {@code server}'s handlers over HTTP/3, with the TLS key and certificate of {@code keys}. */
    public Http3Connector(Server server, HttpConfiguration configuration, KeyManagerFactory keys, QuicOptions options) {
        super(server, null, null, null, 0, new Http3Protocol());
        this.configuration = configuration;
        this.keys = keys;
        this.options = options;
        this.javaPacer = !QuicheLibrary.loaded().pacesWhenBuilding();
    }

    HttpConfiguration configuration() {
        return configuration;
    }

    public QuicOptions options() {
        return options;
    }

    /** Whether the listener writes a burst of datagrams as one segmented write (GSO; known once open). */
    public boolean segmentsWrites() {
        return segmented;
    }

    /**
     * Where the UDP socket is made: on the calling thread by default; the h3 listener behind a kernel
     * link makes it in the link's network namespace ({@code KernelLink::inNamespace}), while Netty's
     * threads start outside it, on this connector's own (a thread started in the namespace would keep
     * it alive after the link closes).
     */
    public interface Namespace {
        <T> T run(Callable<T> make) throws IOException;
    }

    private Namespace namespace = Http3Connector::here;

    public void setNamespace(Namespace namespace) {
        this.namespace = namespace;
    }

    private static <T> T here(Callable<T> make) throws IOException {
        try {
            return make.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** A UDP socket bound to {@code address}, in the calling thread's network namespace. */
    public static DatagramChannel bind(InetSocketAddress address) throws IOException {
        DatagramChannel socket = DatagramChannel.open(address.getAddress() instanceof java.net.Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        try {
            return socket.bind(address);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Binds the UDP socket (through the {@link SocketOpener}) and starts serving QUIC on it. */
    @Override
    public void open() throws IOException {
        if (udp != null) {
            return;
        }
        String host = getHost() == null ? "0.0.0.0" : getHost();
        ListenerSocket socket = ListenerSocket.open(new InetSocketAddress(host, getPort()), namespace, !javaPacer);
        segmented = socket.segmented();
        loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("h2bench-h3", true), socket.loop());
        try {
            ChannelHandler codec = codec(socket);
            udp = new Bootstrap().group(loop).channelFactory(socket::channel)
                    .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER)
                    .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel datagrams) {
                            // The Java pacer, when there is one, between the codec and the socket: the codec's datagrams
                            // pass it on their way out.
                            if (javaPacer) {
                                datagrams.pipeline().addLast(new Pacer(connections::get));
                            }
                            datagrams.pipeline().addLast(codec);
                        }
                    })
                    .register().sync().channel();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            socket.closeUnregistered();
            close();
            throw new IOException("interrupted while starting the h3 listener", interrupted);
        } catch (IOException | RuntimeException | Error failed) {
            socket.closeUnregistered();
            close();
            throw failed;
        }
    }

    private ChannelHandler codec(ListenerSocket socket) throws IOException {
        // RFC 9114's h3 alone, as maintained servers offer it: Netty's list adds the drafts h3-29 to h3-32,
        // and a client that offered them first (the sampler did) got draft 29
        QuicSslContext tls = QuicSslContextBuilder.forServer(keys, null)
                .applicationProtocols("h3")
                .build();
        var codec = Http3.newQuicServerCodecBuilder()
                .sslContext(tls)
                .maxIdleTimeout(getIdleTimeout(), TimeUnit.MILLISECONDS)
                .initialMaxData(CONNECTION_WINDOW)
                .initialMaxStreamDataBidirectionalLocal(STREAM_WINDOW)
                .initialMaxStreamDataBidirectionalRemote(STREAM_WINDOW)
                .initialMaxStreamDataUnidirectional(STREAM_WINDOW)
                .initialMaxStreamsBidirectional(MAX_CONCURRENT_STREAMS)
                .initialMaxStreamsUnidirectional(8)
                .congestionControlAlgorithm(options.algorithm())
                .initialCongestionWindowPackets(options.initialWindow())
                // Datagrams as large as a 1,500-byte path carries (IPv6 headers included), as ngtcp2's
                // and quic-go's servers send them; quiche's default of 1,200 made 44 kB a round trip longer.
                .maxSendUdpPayloadSize(MAX_DATAGRAM)
                // No token handler (Netty's default then) validates nothing: no Retry, as maintained servers.
                .tokenHandler(options.retry() ? InsecureQuicTokenHandler.INSTANCE : null)
                .handler(new ChannelInitializer<QuicChannel>() {
                    @Override
                    protected void initChannel(QuicChannel quic) {
                        QuicConnectionMetaData connection = new QuicConnectionMetaData(Http3Connector.this, quic);
                        if (javaPacer && quic.remoteSocketAddress() instanceof InetSocketAddress peer) {
                            connections.put(peer, quic);
                            quic.closeFuture().addListener(closed -> connections.remove(peer, quic));
                        }
                        ResponsePriorities priorities = new ResponsePriorities();
                        quic.pipeline().addLast(new Http3ServerConnectionHandler(new ChannelInitializer<QuicStreamChannel>() {
                            @Override
                            protected void initChannel(QuicStreamChannel stream) {
                                stream.pipeline().addLast(new RequestStream(Http3Connector.this, connection, priorities));
                            }
                        }, priorities, null, null, true), QuietFailures.INSTANCE);
                    }
                });
        // runs of equal datagrams as one write (GSO) where the socket takes them; NONE writes each alone
        codec.option(QuicChannelOption.SEGMENTED_DATAGRAM_PACKET_ALLOCATOR, socket.segments());
        if (options.qlogDirectory() != null) {
            codec.option(QuicChannelOption.QLOG, new QLogConfiguration(options.qlogDirectory().toString(),
                    "h2bench-server", "h3 listener"));
        }
        return codec.build();
    }

    @Override
    public void close() {
        Channel open = udp;
        udp = null;
        if (open != null) {
            open.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        if (loop != null) {
            loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            loop = null;
        }
    }

    @Override
    public boolean isOpen() {
        Channel open = udp;
        return open != null && open.isOpen();
    }

    @Override
    public int getLocalPort() {
        Channel open = udp;
        return open == null ? -1 : ((InetSocketAddress) open.localAddress()).getPort();
    }

    @Override
    public Object getTransport() {
        return udp;
    }

    @Override
    public List<String> getProtocols() {
        return List.of("h3");
    }

    @Override
    protected void accept(int acceptorId) {
        throw new UnsupportedOperationException("the h3 listener has no acceptors: Netty reads its datagrams");
    }

    /**
     * Ends a QUIC connection that failed (a handshake that does not decrypt, a peer's protocol error)
     * without a log line: a flood of bogus Initials would otherwise write a stack trace per datagram.
     */
    @ChannelHandler.Sharable
    private static final class QuietFailures extends ChannelInboundHandlerAdapter {

        static final QuietFailures INSTANCE = new QuietFailures();

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            QUIET.debug("h3 connection from {} failed", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }

    /** The protocol the connector announces; QUIC streams reach Jetty through {@link RequestStream}, not endpoints. */
    private static final class Http3Protocol extends AbstractConnectionFactory {

        Http3Protocol() {
            super("h3");
        }

        @Override
        public Connection newConnection(Connector connector, EndPoint endPoint) {
            throw new UnsupportedOperationException("HTTP/3 streams are Netty's, not Jetty endpoints");
        }
    }
}
