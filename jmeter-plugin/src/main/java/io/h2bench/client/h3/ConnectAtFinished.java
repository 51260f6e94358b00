package io.h2bench.client.h3;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import java.util.concurrent.CompletableFuture;

/**
 * Lets Netty's QUIC client see its handshake end when the client's Finished leaves, not one round
 * trip later. Netty 4.2.18 checks whether quiche's handshake is complete only after reading a
 * datagram; the client's certificate check runs as an SSL task after the read that brought the
 * server's Finished, and the handshake completes in the send that follows it, which sends the
 * client's Finished and checks nothing. The connect then waited for the server's next datagram
 * (its HANDSHAKE_DONE, a round trip later): a capture on the 100 ms kernel link showed every
 * request leave 100 ms after the client's Finished. So, while the handshake runs, each datagram the
 * client sends is followed by the last one it received, read again: quiche drops it as a duplicate
 * (nothing is sent for it), and Netty then looks at the handshake. Sits after {@link DatagramLedger},
 * so the byte counts see only the network's datagrams; removes itself once the connection is up.
 */
final class ConnectAtFinished extends ChannelDuplexHandler {

    private final CompletableFuture<?> ready;
    private DatagramPacket lastReceived;

    ConnectAtFinished(CompletableFuture<?> ready) {
        this.ready = ready;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof DatagramPacket packet && !ready.isDone()) {
            forget();
            lastReceived = packet.copy();
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        super.write(ctx, msg, promise);
        if (msg instanceof DatagramPacket) {
            // After the send that may have completed the handshake, not inside it.
            ctx.executor().execute(() -> readAgain(ctx));
        }
    }

    private void readAgain(ChannelHandlerContext ctx) {
        if (ctx.isRemoved()) {
            return;
        }
        if (ready.isDone()) {
            ctx.pipeline().remove(this);
        } else if (lastReceived != null) {
            ctx.fireChannelRead(lastReceived.retainedDuplicate());
            ctx.fireChannelReadComplete();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        forget();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        forget();
        super.channelInactive(ctx);
    }

    private void forget() {
        if (lastReceived != null) {
            lastReceived.release();
            lastReceived = null;
        }
    }
}
