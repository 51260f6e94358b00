package io.h2bench.server.h3;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.quic.DefaultQuicStreamFrame;
import io.netty.handler.codec.quic.QuicStreamChannel;

/**
 * Ends a response stream in the STREAM frame of its last bytes, as ngtcp2's server does, and not
 * in a frame of its own: quiche does not send again a FIN-only frame whose packet was lost (it
 * counts it delivered once the bytes before it are), so the client waited for the end of a
 * response it had whole until its timeout (4 of 20 page loads at 5 % loss, each in a FIN-only
 * packet the client never got; never with gtlsserver on the same link). The FIN goes with the
 * frame that completes the declared content length, or with the response's last frame.
 * Beneath the HTTP/3 codec (only {@link HeadersWithFirstBytes} is lower), it turns the codec's bytes of that
 * frame into one {@link DefaultQuicStreamFrame} with the FIN set. Event loop only.
 */
final class FinWithLastBytes extends ChannelOutboundHandlerAdapter {

    /** The promise of the last frame's write, by which its encoded bytes are known. */
    private ChannelPromise last;
    private long contentLength = -1;
    private long contentSent;
    private boolean ended;

    static FinWithLastBytes addTo(QuicStreamChannel stream) {
        FinWithLastBytes handler = new FinWithLastBytes();
        stream.pipeline().addFirst(handler);
        return handler;
    }

    /** The response's declared content length, -1 when it declares none. */
    void expect(long length) {
        contentLength = length;
    }

    /** Counts {@code bytes} of the body as sent; true when they complete the declared length. */
    boolean completes(long bytes) {
        contentSent += bytes;
        return contentLength >= 0 && contentSent >= contentLength;
    }

    /** The promise to write the stream's last frame with: its bytes carry the FIN. */
    ChannelPromise lastFrame(QuicStreamChannel stream) {
        ended = true;
        last = stream.newPromise();
        return last;
    }

    /** The FIN has left (or is leaving) with a frame: nothing more goes on this stream. */
    boolean ended() {
        return ended;
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
