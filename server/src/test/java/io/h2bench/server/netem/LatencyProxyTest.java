package io.h2bench.server.netem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Timing of the emulated link, measured through real loopback sockets. Where a time is asserted the
 * best of a few rounds is used: on a busy machine the scheduler can only add delay, never remove it,
 * so the best round shows what the emulator itself does.
 */
class LatencyProxyTest {

    private static final double MILLIS = 1e6;

    private final ProxyFixture net = new ProxyFixture();

    @AfterEach
    void stop() throws IOException {
        net.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {20, 100, 200})
    void shouldAddConfiguredRoundTripWhenConnectionIsEstablished(int rttMillis) throws IOException {
        net.start(TargetServer.echo(), LinkProfile.ideal().withName("test").withRtt(Duration.ofMillis(rttMillis)));

        try (Socket socket = net.connect()) {
            ping(socket); // carries the emulated handshake round trip
            long[] rounds = new long[9];
            for (int i = 0; i < rounds.length; i++) {
                rounds[i] = ping(socket);
            }
            Arrays.sort(rounds);

            assertThat(rounds[0] / MILLIS).isGreaterThanOrEqualTo(rttMillis).isCloseTo(rttMillis, within(2.0));
        }
    }

    @Test
    void shouldChargeHandshakeRoundTripToFirstBytesWhenConnectionIsNew() throws IOException {
        net.start(TargetServer.echo(), LinkProfile.ideal().withName("test").withRtt(Duration.ofMillis(100)));

        long bestConnect = Long.MAX_VALUE;
        long bestFirstExchange = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            try (Socket socket = net.connect()) {
                bestConnect = Math.min(bestConnect, System.nanoTime() - start);
                bestFirstExchange = Math.min(bestFirstExchange, ping(socket));
            }
        }

        assertThat(bestConnect / MILLIS).isLessThan(20.0);
        // The handshake's round trip and the exchange's: 2 R. Late timers on a busy machine only add (the best
        // of three was 4.9 ms over with another build on the two cores); a round trip more or less still fails.
        assertThat(bestFirstExchange / MILLIS).isBetween(197.0, 250.0);
    }

    @Test
    void shouldDeliverServerGreetingTwoRoundTripsAfterConnectWhenServerSpeaksFirst() throws IOException {
        net.start(TargetServer.start(socket -> {
            socket.getOutputStream().write("220 hello\r\n".getBytes());
            socket.getInputStream().readAllBytes();
        }), LinkProfile.ideal().withName("test").withRtt(Duration.ofMillis(100)));

        long best = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            try (Socket socket = net.connect()) {
                socket.getInputStream().readNBytes(11);
                best = Math.min(best, System.nanoTime() - start);
            }
        }

        assertThat(best / MILLIS).as("2 R, late timers only add").isBetween(197.0, 250.0);
    }

    @Test
    void shouldDownloadAtLinkBandwidthWhenBandwidthIsLimited() throws IOException {
        int size = 2 * 1024 * 1024;
        long bitsPerSecond = 20_000_000;
        net.start(TargetServer.download(new byte[size]), LinkProfile.ideal().withName("test").withBandwidth(bitsPerSecond, 0));

        double best = Double.MAX_VALUE;
        for (int round = 0; round < 2; round++) {
            try (Socket socket = net.connect()) {
                long start = System.nanoTime();
                socket.getOutputStream().write(1);
                byte[] received = socket.getInputStream().readAllBytes();
                best = Math.min(best, (System.nanoTime() - start) / 1e9);
                assertThat(received).hasSize(size);
            }
        }

        double expected = size * 8.0 / bitsPerSecond;
        assertThat(best).isCloseTo(expected, within(expected * 0.05));
    }

    @Test
    void shouldShareBandwidthFairlyWhenTwoConnectionsDownloadTogether() throws Exception {
        int size = 1024 * 1024;
        long bitsPerSecond = 20_000_000;
        net.start(TargetServer.download(new byte[size]), LinkProfile.ideal().withName("test").withBandwidth(bitsPerSecond, 0));

        try (Socket first = net.connect(); Socket second = net.connect()) {
            long start = System.nanoTime();
            first.getOutputStream().write(1);
            second.getOutputStream().write(1);
            var secondDone = CompletableFuture.supplyAsync(() -> readAllTimed(second, start));
            long firstNanos = readAllTimed(first, start);
            long secondNanos = secondDone.get(10, TimeUnit.SECONDS);

            double expected = 2.0 * size * 8 / bitsPerSecond;
            assertThat(Math.min(firstNanos, secondNanos) / 1e9).isGreaterThan(expected * 0.95);
            assertThat(Math.max(firstNanos, secondNanos) / 1e9).isCloseTo(expected, within(expected * 0.15));
        }
    }

    @Test
    void shouldPropagateHalfCloseWhenClientShutsDownOutput() throws IOException {
        TargetServer target = TargetServer.start(socket -> {
            byte[] request = socket.getInputStream().readAllBytes(); // until the client's FIN
            socket.getOutputStream().write(("got " + request.length).getBytes());
            socket.shutdownOutput();
        });
        net.start(target, LinkProfile.ideal().withName("test").withRtt(Duration.ofMillis(20)));

        try (Socket socket = net.connect()) {
            socket.getOutputStream().write(new byte[3000]);
            socket.shutdownOutput();

            assertThat(new String(socket.getInputStream().readAllBytes())).isEqualTo("got 3000");
        }
    }

    @Test
    void shouldResetClientWhenTargetResetsConnection() throws IOException {
        TargetServer target = TargetServer.start(socket -> {
            socket.getInputStream().read();
            socket.setSoLinger(true, 0);
            socket.close();
        });
        net.start(target, LinkProfile.ideal().withName("test").withRtt(Duration.ofMillis(20)));

        try (Socket socket = net.connect()) {
            socket.getOutputStream().write(1);

            assertThatThrownBy(() -> socket.getInputStream().read()).isInstanceOf(SocketException.class);
        }
    }

    @Test
    void shouldResetClientWhenTargetRefusesConnection() throws IOException {
        InetSocketAddress nobody;
        try (var unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobody = (InetSocketAddress) unused.getLocalSocketAddress();
        }
        LatencyProxy proxy = net.startTowards(nobody, LinkProfile.ideal());

        // Depending on timing the reset ends the connect itself or the first read.
        assertThatThrownBy(() -> {
            try (Socket socket = net.connect()) {
                socket.getOutputStream().write(1);
                socket.getInputStream().read();
            }
        }).isInstanceOf(SocketException.class);
        assertThat(proxy.connectionsAccepted()).isEqualTo(1);
    }

    @Test
    void shouldPushBackOnTargetWhenClientDoesNotRead() throws Exception {
        int total = 64 * 1024 * 1024;
        AtomicLong written = new AtomicLong();
        net.start(TargetServer.start(socket -> {
            socket.getInputStream().read();
            byte[] chunk = new byte[64 * 1024];
            while (written.get() < total) {
                socket.getOutputStream().write(chunk);
                written.addAndGet(chunk.length);
            }
        }), LinkProfile.ideal().withName("test").withRtt(Duration.ofMillis(2)));

        try (Socket socket = net.connect()) {
            socket.getOutputStream().write(1);
            long before;
            long after = written.get();
            do { // poll until the target's writes stop advancing: its socket is full
                before = after;
                Thread.sleep(200);
                after = written.get();
            } while (after != before);

            assertThat(after).isLessThan(total / 2).isGreaterThan(Pipe.MAX_BUFFERED);
            assertThat(socket.getInputStream().readNBytes(total)).hasSize(total);
        }
    }

    @Test
    void shouldResetClientsAndStopThreadsWhenProxyIsClosed() throws IOException {
        LatencyProxy proxy = net.start(TargetServer.echo(), LinkProfile.ideal().withName("test").withRtt(Duration.ofMillis(20)));
        String threadName = "h2bench-netem-" + proxy.address().getPort();

        try (Socket socket = net.connect()) {
            ping(socket);
            proxy.close();

            assertThatThrownBy(() -> {
                socket.getOutputStream().write(1);
                if (socket.getInputStream().read() < 0) {
                    throw new SocketException("end of stream");
                }
            }).isInstanceOf(SocketException.class);
        }
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith(threadName));
    }

    private static long ping(Socket socket) throws IOException {
        return ProxyFixture.roundTrip(socket, 16);
    }

    private static long readAllTimed(Socket socket, long start) {
        try {
            socket.getInputStream().readAllBytes();
            return System.nanoTime() - start;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
