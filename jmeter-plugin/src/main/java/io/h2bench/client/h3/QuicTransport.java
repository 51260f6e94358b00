package io.h2bench.client.h3;

import io.h2bench.client.connect.SharedInstance;
import io.h2bench.client.profile.BrowserPreset;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Netty's side of the sampler's HTTP/3, shared by every virtual user of the JVM: one event loop per
 * core (daemon threads, so no JMeter run hangs on them) and one TLS configuration. Reference
 * counted like {@link io.h2bench.client.connect.SharedClient}: started by the first HTTP/3 user, stopped by
 * the last and by {@link #stopAll()} at test end.
 */
public final class QuicTransport {

    private static final SharedInstance<QuicTransport> SHARED =
            new SharedInstance<>("HTTP/3 (Netty's QUIC with its native quiche)", QuicTransport::new, QuicTransport::stop);

    private final EventLoopGroup loops;
    private final QuicSslContext tls;
    private volatile boolean stopped;

    private QuicTransport() {
        loops = new MultiThreadIoEventLoopGroup(Math.max(1, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory("h2bench-quic", true), NioIoHandler.newFactory());
        // Trusts the server it is pointed at, as JMeter's HTTP sampler and the TCP client (ProfileTls) do.
        tls = QuicSslContextBuilder.forClient()
                .trustManager(InsecureTrustManagerFactory.INSTANCE)
                // RFC 9114's h3 alone, as browsers offer it: Netty's list puts the drafts h3-29 to h3-32
                // first, and a server that also has them (h2bench's did) agreed on draft 29
                .applicationProtocols("h3")
                .build();
    }

    /** Takes a reference, starting the event loops if this is the first user. */
    static QuicTransport acquire() {
        return SHARED.acquire();
    }

    /** Gives a reference back; the last one stops the event loops. */
    void release() {
        SHARED.release(this);
    }

    /** Stops the event loops whatever the count: JMeter's test end, after which no thread may remain. */
    public static void stopAll() {
        SHARED.stopAll();
    }

    private void stop() {
        stopped = true;
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    boolean live() {
        return !stopped;
    }

    EventLoopGroup loops() {
        return loops;
    }

    /**
     * A QUIC client codec for one connection's UDP socket, naming {@code host} in the TLS server name
     * (SNI) as browsers do, with a browser's flow-control windows, stream limits and idle timeout
     * (its {@link BrowserPreset}). The idle timeout also ends a handshake nobody answers.
     */
    ChannelHandler newCodec(String host, int port, BrowserPreset.Http3 parameters) {
        return Http3.newQuicClientCodecBuilder()
                .sslEngineProvider(channel -> tls.newEngine(channel.alloc(), host, port))
                .maxIdleTimeout(parameters.idleTimeoutMillis(), TimeUnit.MILLISECONDS)
                .initialMaxData(parameters.maxData())
                .initialMaxStreamDataBidirectionalLocal(parameters.maxStreamDataBidiLocal())
                .initialMaxStreamDataBidirectionalRemote(parameters.maxStreamDataBidiRemote())
                .initialMaxStreamDataUnidirectional(parameters.maxStreamDataUni())
                .initialMaxStreamsBidirectional(parameters.maxStreamsBidi())
                .initialMaxStreamsUnidirectional(parameters.maxStreamsUni())
                .build();
    }
}
