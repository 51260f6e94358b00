package io.h2bench.server.h3;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.quic.EpollQuicUtils;
import io.netty.handler.codec.quic.SegmentedDatagramPacketAllocator;

/**
 * The h3 listener's UDP socket, bound, as a Netty channel with the event loop kind it needs. Where
 * Netty's epoll transport loads, epoll's: the codec hands it each run of equal-sized datagrams it
 * builds in one go (a paced burst) as one write, which the kernel cuts into datagrams (UDP generic
 * segmentation offload), as ngtcp2's and quic-go's servers write; NIO's writes one datagram per
 * system call, which cost the server 38 % more CPU per GiB on loopback (it changed no time behind
 * the link: benchmarks page, 2026-11-30). Where epoll does not load, or the Java {@link Pacer} must
 * see every datagram, NIO's.
 */
final class ListenerSocket {

    /** Datagrams of one write at most: a paced burst (up to 45) leaves in three writes or fewer; Linux takes 64. */
    private static final int SEGMENTS = 16;

    private final Channel channel;
    private final IoHandlerFactory loop;
    private final SegmentedDatagramPacketAllocator segments;

    private ListenerSocket(Channel channel, IoHandlerFactory loop, SegmentedDatagramPacketAllocator segments) {
        this.channel = channel;
        this.loop = loop;
        this.segments = segments;
    }

    /**
     * A socket bound to {@code address}, made inside {@code namespace}; segmenting only when
     * {@code segmentable} (no Java pacer between the codec and the socket).
     */
    static ListenerSocket open(InetSocketAddress address, Http3Connector.Namespace namespace, boolean segmentable) throws IOException {
        if (!segmentable || !Epoll.isAvailable()) {
            NioDatagramChannel nio = new NioDatagramChannel(namespace.run(() -> Http3Connector.bind(address)));
            return new ListenerSocket(nio, NioIoHandler.newFactory(), SegmentedDatagramPacketAllocator.NONE);
        }
        EpollDatagramChannel epoll = namespace.run(() -> new EpollDatagramChannel(bound(address).intValue()));
        return new ListenerSocket(epoll, EpollIoHandler.newFactory(), EpollQuicUtils.newSegmentedAllocator(SEGMENTS));
    }

    /** A native UDP socket bound to {@code address}, in the calling thread's network namespace. */
    private static LinuxSocket bound(InetSocketAddress address) throws IOException {
        LinuxSocket socket = LinuxSocket.newSocketDgram(address.getAddress() instanceof Inet6Address);
        try {
            socket.bind(address);
            return socket;
        } catch (IOException e) {
            socket.close();
            BindException failed = new BindException("cannot bind the h3 listener's UDP socket to " + address + ": " + e.getMessage());
            failed.initCause(e);
            throw failed;
        }
    }

    Channel channel() {
        return channel;
    }

    IoHandlerFactory loop() {
        return loop;
    }

    SegmentedDatagramPacketAllocator segments() {
        return segments;
    }

    /** Whether writes are segmented, for the banner. */
    boolean segmented() {
        return segments != SegmentedDatagramPacketAllocator.NONE;
    }

    /** Closes the socket of a channel that was never registered. */
    void closeUnregistered() {
        channel.unsafe().closeForcibly();
    }
}
