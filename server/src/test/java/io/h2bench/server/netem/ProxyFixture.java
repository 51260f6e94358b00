package io.h2bench.server.netem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/** A target server with a proxy in front of it, and clients for it; closed after each test. */
final class ProxyFixture implements AutoCloseable {

    private TargetServer target;
    private LatencyProxy proxy;

    LatencyProxy start(TargetServer server, LinkProfile profile) throws IOException {
        this.target = server;
        this.proxy = LatencyProxy.start(loopback(0), server.address(), profile);
        return proxy;
    }

    LatencyProxy startTowards(InetSocketAddress address, LinkProfile profile) throws IOException {
        this.proxy = LatencyProxy.start(loopback(0), address, profile);
        return proxy;
    }

    LatencyProxy proxy() {
        return proxy;
    }

    /** A client of the proxy, with Nagle off so that the test measures the link, not its own batching. */
    Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(20_000);
        socket.connect(proxy.address(), 5_000);
        return socket;
    }

    /** Sends {@code size} bytes to an echo target and waits for them back; nanoseconds. */
    static long roundTrip(Socket socket, int size) throws IOException {
        long start = System.nanoTime();
        socket.getOutputStream().write(new byte[size]);
        assertThat(socket.getInputStream().readNBytes(size)).hasSize(size);
        return System.nanoTime() - start;
    }

    static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    @Override
    public void close() throws IOException {
        if (proxy != null) {
            proxy.close();
        }
        if (target != null) {
            target.close();
        }
    }
}
