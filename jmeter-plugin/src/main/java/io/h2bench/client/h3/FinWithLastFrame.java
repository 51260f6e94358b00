package io.h2bench.client.h3;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http3.Http3RequestStreamFrame;
import io.netty.handler.codec.quic.DefaultQuicStreamFrame;
import io.netty.handler.codec.quic.QuicStreamChannel;

/**
 * Ends a request stream with its last frame, as browsers and ngtcp2 do: the FIN leaves in the
 * STREAM frame of the request's last bytes. Netty's stream channel hands every write to quiche
 * ({@code stream_send}) and sends the packets at once, so a FIN written afterwards
 * ({@code shutdownOutput}) left in a packet of its own, after the server had taken the HEADERS as
 * an unfinished request. First in the stream's pipeline, beneath the HTTP/3 codec, this handler
 * turns the codec's encoded bytes of the last frame into a {@link DefaultQuicStreamFrame} with
 * the FIN set, so that quiche gets both in one {@code stream_send}.
 */
final class FinWithLastFrame extends ChannelOutboundHandlerAdapter {

    /** The promise of the last frame's write, by which its encoded bytes are known; event loop only. */
    private ChannelPromise last;

    /** Puts the handler beneath the codec of a stream that {@code Http3.newRequestStream} has just opened. */
    static FinWithLastFrame addTo(QuicStreamChannel stream) {
        FinWithLastFrame handler = new FinWithLastFrame();
        stream.pipeline().addFirst(handler);
        return handler;
    }

    /** Writes and flushes the request's last frame, with the stream's FIN in its STREAM frame. */
    ChannelFuture writeLast(QuicStreamChannel stream, Http3RequestStreamFrame frame) {
        ChannelPromise promise = stream.newPromise();
        last = promise;
        return stream.writeAndFlush(frame, promise);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        // The codec passes a frame's promise on with its bytes (also when it held them for QPACK).
        if (promise == last && msg instanceof ByteBuf bytes) {
            last = null;
            ctx.write(new DefaultQuicStreamFrame(bytes, true), promise);
        } else {
            ctx.write(msg, promise);
        }
    }
}
