package io.h2bench.client.h3;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;

/**
 * The UDP payload bytes of one QUIC connection's socket, counted beneath the QUIC codec (so every
 * packet: handshake, ACKs, retransmissions, QPACK and control streams), and their attribution to
 * the exchanges on the connection, by the rule {@code WireConnection} applies to TCP:
 * <ol>
 *   <li>an exchange that ends while others are still in flight takes its own share: its response
 *       (body plus an estimate of its HEADERS) and its request, as far as not yet taken;</li>
 *   <li>the last exchange in flight takes everything not yet taken, so that the usual
 *       one-request-at-a-time sample gets exactly its packets;</li>
 *   <li>bytes moved while none is in flight (the handshake before the first request, ACKs after a
 *       response) go to the next exchange that ends.</li>
 * </ol>
 * The exchanges of a connection thus add up to its datagrams up to the last one's end, never more.
 * Everything runs on the connection's event loop; the counters are read by tests from elsewhere.
 */
final class DatagramLedger extends ChannelDuplexHandler {

    private long totalIn;
    private long totalOut;
    private long datagramsIn;
    private long datagramsOut;
    private long takenIn;
    private long takenOut;
    private int inFlight;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof DatagramPacket packet) {
            synchronized (this) {
                totalIn += packet.content().readableBytes();
                datagramsIn++;
            }
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof DatagramPacket packet) {
            synchronized (this) {
                totalOut += packet.content().readableBytes();
                datagramsOut++;
            }
        }
        super.write(ctx, msg, promise);
    }

    synchronized void begin() {
        inFlight++;
    }

    /**
     * Ends an exchange that received {@code ownIn} and sent {@code ownOut} bytes of HTTP/3 payload;
     * returns its {received, sent} UDP payload bytes.
     */
    synchronized long[] end(long ownIn, long ownOut) {
        inFlight = Math.max(0, inFlight - 1);
        long in = inFlight == 0 ? totalIn - takenIn : Math.min(ownIn, totalIn - takenIn);
        long out = inFlight == 0 ? totalOut - takenOut : Math.min(ownOut, totalOut - takenOut);
        takenIn += in;
        takenOut += out;
        return new long[] {in, out};
    }

    synchronized long totalIn() {
        return totalIn;
    }

    synchronized long totalOut() {
        return totalOut;
    }

    synchronized long datagrams() {
        return datagramsIn + datagramsOut;
    }
}
