package io.h2bench.server.netem;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the emulator costs at zero settings: the round-trip time it adds to a small request and the
 * rate it forwards on loopback, each against the same server reached directly. A benchmark, not a
 * test: run it with benchmarks/netem-bench.sh on a quiet machine.
 */
public final class NetemBenchmark {

    private static final int ROUND_TRIPS = 5_000;
    private static final long DOWNLOAD_BYTES = 2L * 1024 * 1024 * 1024;
    /** Faster than the proxy can go: shows the cost of cutting segments and booking the link. */
    private static final long FAST_LINK_BITS = 100_000_000_000L;

    private NetemBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        try (TargetServer echo = TargetServer.echo();
             TargetServer source = TargetServer.start(NetemBenchmark::sendZeros);
             LatencyProxy echoProxy = LatencyProxy.start(ProxyFixture.loopback(0), echo.address(), LinkProfile.ideal());
             LatencyProxy sourceProxy = LatencyProxy.start(ProxyFixture.loopback(0), source.address(), LinkProfile.ideal());
             LatencyProxy linkProxy = LatencyProxy.start(ProxyFixture.loopback(0), source.address(),
                     LinkProfile.ideal().withName("fast link").withBandwidth(FAST_LINK_BITS, FAST_LINK_BITS))) {
            for (int warmUp = 0; warmUp < 2; warmUp++) {
                roundTrips(echo.address(), 2_000);
                roundTrips(echoProxy.address(), 2_000);
                download(source.address(), DOWNLOAD_BYTES / 8);
                download(sourceProxy.address(), DOWNLOAD_BYTES / 8);
            }
            long[] direct = roundTrips(echo.address(), ROUND_TRIPS);
            long[] proxied = roundTrips(echoProxy.address(), ROUND_TRIPS);
            System.out.printf(Locale.ROOT, "round trip, 100 B each way, %d rounds (microseconds)%n", ROUND_TRIPS);
            System.out.printf(Locale.ROOT, "  direct : median %7.1f  p90 %7.1f  mean %7.1f%n",
                    percentile(direct, 50), percentile(direct, 90), mean(direct));
            System.out.printf(Locale.ROOT, "  proxied: median %7.1f  p90 %7.1f  mean %7.1f%n",
                    percentile(proxied, 50), percentile(proxied, 90), mean(proxied));
            System.out.printf(Locale.ROOT, "  added  : median %7.1f  mean %7.1f%n",
                    percentile(proxied, 50) - percentile(direct, 50), mean(proxied) - mean(direct));
            double directRate = download(source.address(), DOWNLOAD_BYTES);
            double proxiedRate = download(sourceProxy.address(), DOWNLOAD_BYTES);
            double linkRate = download(linkProxy.address(), DOWNLOAD_BYTES / 4);
            printRttAccuracy(echo.address(), 20);
            printRttAccuracy(echo.address(), 100);
            System.out.printf(Locale.ROOT, "download of %d MiB (Gbit/s): direct %.2f, proxied %.2f%n",
                    DOWNLOAD_BYTES >> 20, directRate, proxiedRate);
            System.out.printf(Locale.ROOT, "download of %d MiB through a 100 Gbit/s emulated link (MSS segments): %.2f Gbit/s%n",
                    DOWNLOAD_BYTES >> 22, linkRate);
        }
    }

    /** How far the measured round trip strays from the emulated one (precision, not cost). */
    private static void printRttAccuracy(InetSocketAddress echo, int rttMillis) throws IOException {
        LinkProfile profile = LinkProfile.ideal().withName("accuracy").withRtt(Duration.ofMillis(rttMillis));
        try (LatencyProxy proxy = LatencyProxy.start(ProxyFixture.loopback(0), echo, profile)) {
            long[] rounds = roundTrips(proxy.address(), 50);
            System.out.printf(Locale.ROOT, "rtt %d ms, 50 rounds: min %+.3f  median %+.3f  p90 %+.3f ms off%n",
                    rttMillis, percentile(rounds, 0) / 1e3 - rttMillis, percentile(rounds, 50) / 1e3 - rttMillis,
                    percentile(rounds, 90) / 1e3 - rttMillis);
        }
    }

    private static long[] roundTrips(InetSocketAddress address, int rounds) throws IOException {
        long[] nanos = new long[rounds];
        byte[] message = new byte[100];
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            for (int i = -1; i < rounds; i++) { // round -1: the connection's first bytes, not counted
                long start = System.nanoTime();
                out.write(message);
                in.readNBytes(message, 0, message.length);
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - start;
                }
            }
        }
        Arrays.sort(nanos);
        return nanos;
    }

    /** Gbit/s of a download of {@code bytes} from a server that sends zeros. */
    private static double download(InetSocketAddress address, long bytes) throws IOException {
        byte[] buffer = new byte[256 * 1024];
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            long start = System.nanoTime();
            socket.getOutputStream().write(ByteCount.encode(bytes));
            long received = 0;
            int n;
            while ((n = socket.getInputStream().read(buffer)) >= 0) {
                received += n;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (received != bytes) {
                throw new IOException("received " + received + " of " + bytes + " bytes");
            }
            return bytes * 8 / seconds / 1e9;
        }
    }

    private static void sendZeros(Socket socket) throws IOException {
        long remaining = ByteCount.decode(socket.getInputStream().readNBytes(Long.BYTES));
        byte[] zeros = new byte[256 * 1024];
        OutputStream out = socket.getOutputStream();
        while (remaining > 0) {
            int n = (int) Math.min(zeros.length, remaining);
            out.write(zeros, 0, n);
            remaining -= n;
        }
        socket.shutdownOutput();
    }

    private static double percentile(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)] / 1e3;
    }

    private static double mean(long[] values) {
        return Arrays.stream(values).average().orElse(0) / 1e3;
    }

    /** The download size travels as 8 big-endian bytes. */
    private static final class ByteCount {
        static byte[] encode(long value) {
            return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
        }

        static long decode(byte[] bytes) {
            return ByteBuffer.wrap(bytes).getLong();
        }
    }
}
