package io.h2bench.client.h3;

import io.h2bench.client.wire.WireConnection;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;

/**
 * Books the UDP payload bytes of one QUIC connection's socket on its {@link WireConnection}, counted
 * beneath the QUIC codec (so every packet: handshake, ACKs, retransmissions, QPACK and control
 * streams), as {@code CountingEndPoint} books a TCP socket's. The connection's wire shares them among
 * the exchanges on it by the rule it applies to TCP, and its first datagram sent (the client's
 * Initial) starts the connect time. Runs on the connection's event loop.
 */
final class DatagramLedger extends ChannelDuplexHandler {

    private final WireConnection wire;

    DatagramLedger(WireConnection wire) {
        this.wire = wire;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof DatagramPacket packet) {
            wire.datagramReceived(packet.content().readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof DatagramPacket packet) {
            wire.datagramSent(packet.content().readableBytes());
        }
        super.write(ctx, msg, promise);
    }
}
