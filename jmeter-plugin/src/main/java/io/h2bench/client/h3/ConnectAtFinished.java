package io.h2bench.client.h3;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import java.util.ArrayList;
import java.util.List;
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
 *
 * <p>It also keeps the server's first 1-RTT packet. A server may send its control streams right
 * after its handshake flight, coalesced in one datagram behind a handshake packet; quiche cannot read
 * it before the client's certificate check (an SSL task after that read) gives it the keys, and a
 * datagram read again whole is dropped at its duplicate handshake packet. So the 1-RTT part of such
 * a datagram ({@link CoalescedPackets}) is read again alone after each send until the connection is
 * up. Lost, it cost ngtcp2's server, which counts it as congestion while its window is 10 packets,
 * a 2 MiB response of 4.9 s where ngtcp2's own client took 1.0 (988 against 967 ms with this).
 */
final class ConnectAtFinished extends ChannelDuplexHandler {

    private final CompletableFuture<?> ready;
    private DatagramPacket lastReceived;
    /** 1-RTT packets that came coalesced behind handshake packets before the client had the keys to read them. */
    private final List<DatagramPacket> earlyOneRtt = new ArrayList<>();

    ConnectAtFinished(CompletableFuture<?> ready) {
        this.ready = ready;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof DatagramPacket packet && !ready.isDone()) {
            forget();
            lastReceived = packet.copy();
            int tail = CoalescedPackets.oneRttOffset(packet.content());
            if (tail > 0) {
                earlyOneRtt.add(packet.replace(packet.content().retainedSlice(packet.content().readerIndex() + tail,
                        packet.content().readableBytes() - tail)));
            }
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
        // A 1-RTT packet alone: read again whole, its datagram's duplicate handshake packet made quiche drop the rest.
        for (DatagramPacket early : earlyOneRtt) {
            ctx.fireChannelRead(early.retainedDuplicate());
        }
        if (ready.isDone()) {
            ctx.fireChannelReadComplete();
            ctx.pipeline().remove(this);
        } else if (lastReceived != null) {
            ctx.fireChannelRead(lastReceived.retainedDuplicate());
            ctx.fireChannelReadComplete();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        forgetAll();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        forgetAll();
        super.channelInactive(ctx);
    }

    private void forgetAll() {
        forget();
        earlyOneRtt.forEach(DatagramPacket::release);
        earlyOneRtt.clear();
    }

    private void forget() {
        if (lastReceived != null) {
            lastReceived.release();
            lastReceived = null;
        }
    }
}
