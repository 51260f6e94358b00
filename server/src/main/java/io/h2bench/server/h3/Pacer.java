package io.h2bench.server.h3;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicConnectionPathStats;

/**
 * Spreads each QUIC connection's datagrams over its round trip, as maintained QUIC servers pace
 * (ngtcp2's, quic-go's): quiche leaves the pacing to its caller ({@code send_info.at}) and Netty
 * 4.2.18 sends every datagram at once, so a window released by a batch of ACKs left in one burst
 * (161 datagrams within a millisecond on the 100 ms kernel link) and overflowed the client's socket
 * buffer: losses the network never made, and a cold 2 MiB in 1.4 s where ngtcp2's server took 1.0.
 *
 * <p>A token bucket per client address, paced as ngtcp2 0.12's server paces (the issue 38 band's
 * peer): up to 64 KiB ({@value #BURST} datagrams, its send quantum) leave back to back, the rest at
 * 1.25 times the connection's window per smoothed round trip (RFC 9002 7.7), from quiche's own path
 * statistics. The burst is what keeps a reused connection's response whole: after an idle gap a
 * 44 kB response fits the window (61 kB) and quiche builds its 32 packets at once, but bursts of 10
 * let the other 22 out at 2 x cwnd / srtt, 28 ms of a 100 ms round trip later (warm 44 kB 1.30x
 * ngtcp2's). It also leaves a new connection's first rounds unpaced, which a gain of 1.25 with
 * bursts of 10 made 9-11 % slower (benchmarks page, the pacer). Lives on the UDP channel's event
 * loop, between the QUIC codec and the socket.
 *
 * <p>Only with Netty's own quiche ({@code -Dh2bench.quiche=netty}, or the fallback when the patched
 * build cannot run): the patched one paces inside quiche (server/native/quiche-pacing-builds-when-due.patch)
 * and builds each packet when it may leave. Holding packets after quiche has built them, as this
 * handler does, puts the hold into quiche's RTT samples (median 122 to 182 ms behind the 100 ms link),
 * and on a reused connection it held a warm 2 MiB's whole window, which quiche built at the request.
 */
final class Pacer extends ChannelDuplexHandler {

    private static final long MAX_DATAGRAM = Http3Connector.MAX_DATAGRAM;
    /** ngtcp2's send quantum, 64 KiB, in whole datagrams: 45. */
    static final int BURST = (int) (64 * 1024 / MAX_DATAGRAM);
    /** RFC 9002's gain over window / round trip, ngtcp2's. */
    private static final double GAIN = 1.25;
    private static final long QUICHE_INITIAL_RTT_NANOS = TimeUnit.MILLISECONDS.toNanos(333);
    private static final long STATS_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Connections connections;
    private final Map<InetSocketAddress, Flow> flows = new HashMap<>();

    /** The QUIC connection of a client address, or null. */
    interface Connections {
        QuicChannel of(InetSocketAddress peer);
    }

    Pacer(Connections connections) {
        this.connections = connections;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof DatagramPacket datagram)) {
            ctx.write(msg, promise);
            return;
        }
        Flow flow = flows.computeIfAbsent(datagram.recipient(), Flow::new);
        flow.queue.add(new Held(datagram, promise));
        if (!flow.scheduled) {
            flow.release(ctx, false);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        flows.values().forEach(Flow::fail);
        flows.clear();
        super.channelInactive(ctx);
    }

    private record Held(DatagramPacket datagram, ChannelPromise promise) {
    }

    private final class Flow {

        private final InetSocketAddress peer;
        private final ArrayDeque<Held> queue = new ArrayDeque<>();
        private double tokens = BURST * MAX_DATAGRAM;
        private long refilledAt = System.nanoTime();
        private double bytesPerNano;
        private long statsAt;
        private boolean scheduled;

        Flow(InetSocketAddress peer) {
            this.peer = peer;
        }

        /** Sends what the bucket allows now, and schedules the rest; flushes what it sent when {@code flush}. */
        void release(ChannelHandlerContext ctx, boolean flush) {
            scheduled = false;
            long now = System.nanoTime();
            updateRate(now);
            if (bytesPerNano > 0) {
                tokens = Math.min(BURST * MAX_DATAGRAM, tokens + (now - refilledAt) * bytesPerNano);
            } else {
                tokens = Double.MAX_VALUE; // no statistics yet (the handshake): nothing to pace by
            }
            refilledAt = now;
            boolean sent = false;
            while (!queue.isEmpty() && tokens >= queue.peek().datagram.content().readableBytes()) {
                Held next = queue.poll();
                tokens -= next.datagram.content().readableBytes();
                ctx.write(next.datagram, next.promise);
                sent = true;
            }
            if (sent && flush) {
                ctx.flush();
            }
            if (queue.isEmpty()) {
                if (tokens >= BURST * MAX_DATAGRAM) {
                    flows.remove(peer);
                }
                return;
            }
            long wait = (long) ((queue.peek().datagram.content().readableBytes() - tokens) / bytesPerNano);
            scheduled = true;
            ctx.executor().schedule(() -> release(ctx, true), Math.max(wait, 1), TimeUnit.NANOSECONDS);
        }

        private void updateRate(long now) {
            if (now - statsAt < STATS_EVERY_NANOS) {
                return;
            }
            statsAt = now;
            QuicChannel quic = connections.of(peer);
            if (quic == null) {
                return;
            }
            quic.collectPathStats(0).addListener(done -> {
                if (done.isSuccess()) {
                    QuicConnectionPathStats path = (QuicConnectionPathStats) done.getNow();
                    long rttNanos = path.rtt(); // quiche reports nanoseconds
                    // Until its first sample quiche reports its initial guess, 333 ms: no rate to pace by then
                    // (on loopback it held a page's first packets 16 ms each).
                    if (rttNanos > 0 && rttNanos != QUICHE_INITIAL_RTT_NANOS && path.cwnd() > 0) {
                        bytesPerNano = GAIN * path.cwnd() / rttNanos;
                    }
                }
            });
        }

        void fail() {
            Held held;
            while ((held = queue.poll()) != null) {
                held.datagram.release();
                held.promise.tryFailure(new java.nio.channels.ClosedChannelException());
            }
        }
    }
}
