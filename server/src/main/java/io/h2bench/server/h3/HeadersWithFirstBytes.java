package io.h2bench.server.h3;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.quic.DefaultQuicStreamFrame;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * Sends a response's HEADERS in the packet of its first body bytes, as ngtcp2's server does, and
 * not in a datagram of its own: Netty's QUIC stream hands each write to quiche's stream_send and
 * then sends the connection's packets at once (its flush does nothing), so the codec's HEADERS
 * frame left alone, about 0.6 ms before the body (benchmarks page, the 44 kB round trip). Every
 * extra short packet costs a datagram's overhead and, with a fixed loss pattern, moves which
 * data is lost. Here the stream's writes wait for the next flush and go to quiche as one; the
 * listener flushes at the end of each of Jetty's writes, so HEADERS whose body is not ready
 * (a 204, a HEAD, a body that comes later) still leave at once. First in the stream's pipeline,
 * beneath {@link FinWithLastBytes}, whose FIN the joined bytes keep. Event loop only.
 */
final class HeadersWithFirstBytes extends ChannelOutboundHandlerAdapter {

    private final List<ByteBuf> held = new ArrayList<>();
    private final List<ChannelPromise> promises = new ArrayList<>();
    private boolean fin;

    static void addTo(QuicStreamChannel stream) {
        stream.pipeline().addFirst(new HeadersWithFirstBytes());
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof QuicStreamFrame frame && !fin) {
            held.add(frame.content());
            fin = frame.hasFin();
            promises.add(promise);
        } else if (msg instanceof ByteBuf bytes && !fin) {
            held.add(bytes);
            promises.add(promise);
        } else {
            release(ctx); // anything else keeps its order behind what was held
            ctx.write(msg, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        release(ctx);
        ctx.flush();
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        discard(new ClosedChannelException());
        ctx.close(promise);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        discard(new ClosedChannelException());
    }

    /** Passes what is held on as one write: one stream_send, one send of the connection's packets. */
    private void release(ChannelHandlerContext ctx) {
        if (held.isEmpty()) {
            return;
        }
        ByteBuf bytes = held.size() == 1 ? held.get(0) : Unpooled.wrappedBuffer(held.toArray(ByteBuf[]::new));
        Object joined = fin ? new DefaultQuicStreamFrame(bytes, true) : bytes;
        List<ChannelPromise> waiting = List.copyOf(promises);
        held.clear();
        promises.clear();
        fin = false;
        ChannelPromise promise = ctx.newPromise();
        promise.addListener(done -> waiting.forEach(each -> {
            if (done.isSuccess()) {
                each.trySuccess();
            } else {
                each.tryFailure(done.cause());
            }
        }));
        ctx.write(joined, promise);
    }

    private void discard(Throwable cause) {
        held.forEach(ReferenceCountUtil::release);
        promises.forEach(promise -> promise.tryFailure(cause));
        held.clear();
        promises.clear();
        fin = false;
    }
}
