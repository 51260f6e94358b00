package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.profile.ConnectionProfile;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.http3.Http3ServerConnectionHandler;
import io.netty.handler.codec.quic.InsecureQuicTokenHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicTransportParameters;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The QUIC transport parameters the client announces under each {@link BrowserPreset}, as an HTTP/3
 * server reads them from its handshake. The server is Netty's, because Jetty 12.1.5's quiche server
 * (the project's h3 listener) does not expose a peer's transport parameters; Netty's does
 * ({@code QuicChannel.peerTransportParameters()}), decoded by the same quiche.
 */
class BrowserPresetHttp3Test {

    private final CompletableFuture<QuicTransportParameters> seen = new CompletableFuture<>();
    private EventLoopGroup loops;
    private Channel udp;
    private SelfSignedCertificate certificate;

    @BeforeEach
    void startServer() throws Exception {
        certificate = new SelfSignedCertificate("localhost");
        QuicSslContext tls = QuicSslContextBuilder.forServer(certificate.privateKey(), null, certificate.certificate())
                .applicationProtocols(Http3.supportedApplicationProtocols()).build();
        loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        udp = new Bootstrap().group(loops).channel(NioDatagramChannel.class)
                .handler(Http3.newQuicServerCodecBuilder()
                        .sslContext(tls)
                        .maxIdleTimeout(10, TimeUnit.SECONDS)
                        .initialMaxData(1 << 20)
                        .initialMaxStreamDataBidirectionalRemote(1 << 16)
                        .initialMaxStreamsBidirectional(10)
                        .tokenHandler(InsecureQuicTokenHandler.INSTANCE)
                        .handler(new ChannelInitializer<QuicChannel>() {
                            @Override
                            protected void initChannel(QuicChannel quic) {
                                quic.pipeline().addLast(new Http3ServerConnectionHandler(new ChannelInitializer<QuicStreamChannel>() {
                                    @Override
                                    protected void initChannel(QuicStreamChannel stream) {
                                        stream.pipeline().addLast(new EmptyOk());
                                    }
                                }));
                            }
                        }).build())
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    @AfterEach
    void stopServer() throws Exception {
        udp.close().sync();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        certificate.delete();
    }

    @ParameterizedTest
    @EnumSource(value = BrowserPreset.class, names = {"CHROME", "FIREFOX"})
    void shouldAnnounceTheBrowsersTransportParametersWhenItsPresetIsChosen(BrowserPreset preset) throws Exception {
        try (UserConnections user = UserConnections.open()) {
            ExchangeResult result = user.send(ExchangeRequest.get(origin(), ProtocolMode.HTTP_3),
                    ConnectionProfile.DIRECT.withPreset(preset));

            assertThat(result.failureMessage()).isNull();
            assertThat(result.status()).isEqualTo(200);
        }
        QuicTransportParameters received = seen.get(10, TimeUnit.SECONDS);
        BrowserPreset.Http3 expected = preset.http3();
        assertThat(received.initialMaxData()).isEqualTo(expected.maxData());
        assertThat(received.initialMaxStreamDataBidiLocal()).isEqualTo(expected.maxStreamDataBidiLocal());
        assertThat(received.initialMaxStreamDataBidiRemote()).isEqualTo(expected.maxStreamDataBidiRemote());
        assertThat(received.initialMaxStreamDataUni()).isEqualTo(expected.maxStreamDataUni());
        assertThat(received.initialMaxStreamsBidi()).isEqualTo(expected.maxStreamsBidi());
        assertThat(received.initialMaxStreamsUni()).isEqualTo(expected.maxStreamsUni());
        assertThat(received.maxIdleTimeout()).isEqualTo(expected.idleTimeoutMillis());
    }

    @Test
    void shouldRefuseHttp3WithAClearReasonWhenThePresetHasNoTransportParameters() {
        try (UserConnections user = UserConnections.open()) {
            assertThatThrownBy(() -> user.send(ExchangeRequest.get(origin(), ProtocolMode.HTTP_3),
                    ConnectionProfile.DIRECT.withPreset(BrowserPreset.JETTY)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Jetty preset has no HTTP/3 transport parameters");
        }
        assertThat(seen).isNotDone();
    }

    private URI origin() {
        return URI.create("https://localhost:" + ((InetSocketAddress) udp.localAddress()).getPort() + "/");
    }

    /** Notes the client's transport parameters (the handshake is done once a request arrives) and answers 200. */
    private final class EmptyOk extends Http3RequestStreamInboundHandler {

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame headers) {
            seen.complete(((QuicChannel) ctx.channel().parent()).peerTransportParameters());
        }

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame data) {
            data.release();
        }

        @Override
        protected void channelInputClosed(ChannelHandlerContext ctx) {
            Http3HeadersFrame response = new DefaultHttp3HeadersFrame();
            response.headers().status("200").addInt("content-length", 0);
            ctx.writeAndFlush(response).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
        }
    }
}
