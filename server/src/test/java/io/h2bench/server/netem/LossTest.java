package io.h2bench.server.netem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Loss as the application sees it: late, in order, intact, and as often as the seed says. */
class LossTest {

    private final ProxyFixture net = new ProxyFixture();
    private final ExecutorService pool = Executors.newFixedThreadPool(40);

    @AfterEach
    void stop() throws IOException {
        pool.shutdownNow();
        net.close();
    }

    @Test
    void shouldLoseSegmentsWithinBinomialBandWhenLossIsSet() throws IOException {
        double p = 0.02;
        LatencyProxy proxy = net.start(TargetServer.download(new byte[2 * 1024 * 1024]), profile(10, p, 42));

        try (Socket socket = net.connect()) {
            socket.getOutputStream().write(1);
            assertThat(socket.getInputStream().readAllBytes()).hasSize(2 * 1024 * 1024);
        }

        long n = proxy.segmentsSent();
        double mean = n * p;
        double sigma = Math.sqrt(n * p * (1 - p));
        assertThat(n).isGreaterThanOrEqualTo(2 * 1024 * 1024 / Segment.MSS);
        assertThat((double) proxy.segmentsLost()).isBetween(mean - 4 * sigma, mean + 4 * sigma);
    }

    @Test
    void shouldKeepOrderAndContentWhenSegmentsAreLost() throws Exception {
        byte[] payload = new byte[1024 * 1024];
        new Random(7).nextBytes(payload);
        LatencyProxy proxy = net.start(TargetServer.echo(), profile(10, 0.05, 3));

        try (Socket socket = net.connect()) {
            CompletableFuture<Void> upload = CompletableFuture.runAsync(() -> {
                try {
                    socket.getOutputStream().write(payload);
                    socket.shutdownOutput();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            byte[] echoed = socket.getInputStream().readAllBytes();
            upload.get(10, TimeUnit.SECONDS);

            assertThat(echoed).hasSize(payload.length);
            assertThat(sha256(echoed)).isEqualTo(sha256(payload));
        }
        assertThat(proxy.segmentsLost()).isPositive();
    }

    @Test
    void shouldDelayLostRequestByRetransmissionTimeoutWhenNothingFollowsIt() throws IOException {
        int rttMillis = 20;
        double p = 0.3;
        long seed = 11;
        LatencyProxy proxy = net.start(TargetServer.echo(), profile(rttMillis, p, seed));
        long rtt = TimeUnit.MILLISECONDS.toNanos(rttMillis);
        // The same draws the proxy makes for connection 0: one segment each way per ping.
        LossModel up = new LossModel(p, rtt, seed, 0, false);
        LossModel down = new LossModel(p, rtt, seed, 0, true);
        long timeoutPenalty = rtt + LossModel.MIN_RTO_NANOS;

        int slowPings = 0;
        try (Socket socket = net.connect()) {
            exchange(socket); // the first one also carries the handshake round trip
            up.nextIsLost();
            down.nextIsLost();
            for (int i = 0; i < 10; i++) {
                long expected = rtt + (up.nextIsLost() ? timeoutPenalty : 0) + (down.nextIsLost() ? timeoutPenalty : 0);
                long measured = exchange(socket);
                slowPings += expected > rtt ? 1 : 0;

                // A busy machine can only add delay; half a timeout of slack still tells the cases apart.
                assertThat(measured).isBetween(expected, expected + timeoutPenalty / 2);
            }
        }
        assertThat(slowPings).as("the seed should make some pings lose a segment").isPositive();
    }

    @Test
    void shouldHoldBackLaterBytesUntilLostSegmentIsRetransmittedWhenResponseSpansSegments() throws IOException {
        int rttMillis = 100;
        int segments = 10;
        double p = 0.15;
        long seed = 5;
        byte[] response = new byte[segments * Segment.MSS];
        LatencyProxy proxy = net.start(TargetServer.start(socket -> {
            while (socket.getInputStream().read() >= 0) {
                socket.getOutputStream().write(response);
            }
        }), profile(rttMillis, p, seed));
        long rtt = TimeUnit.MILLISECONDS.toNanos(rttMillis);
        LossModel up = new LossModel(p, rtt, seed, 0, false);
        LossModel down = new LossModel(p, rtt, seed, 0, true);

        int headOfLineBlocked = 0;
        try (Socket socket = net.connect()) {
            socket.getOutputStream().write(1); // the first exchange also carries the handshake round trip
            socket.getInputStream().readNBytes(response.length);
            up.nextIsLost();
            responsePenalty(down, segments, rtt);
            for (int round = 0; round < 8; round++) {
                long expected = rtt + (up.nextIsLost() ? rtt + LossModel.MIN_RTO_NANOS : 0)
                        + responsePenalty(down, segments, rtt);
                headOfLineBlocked += expected == 2 * rtt ? 1 : 0;
                long start = System.nanoTime();
                socket.getOutputStream().write(1);
                assertThat(socket.getInputStream().readNBytes(response.length)).hasSize(response.length);
                long measured = System.nanoTime() - start;

                // Every penalty the model can add is a round trip or more, so slack under one still tells each
                // outcome apart; rtt / 2 failed twice by 2 and 36 ms with another build on the two cores.
                assertThat(measured).isBetween(expected, expected + rtt * 9 / 10);
            }
        }
        assertThat(headOfLineBlocked).as("the seed should lose a segment before the last one").isPositive();
        assertThat(proxy.segmentsLost()).isPositive();
    }

    @Test
    void shouldKeepEveryConnectionIntactWhenManyShareALossyLink() throws Exception {
        LatencyProxy proxy = net.start(TargetServer.echo(), profile(20, 0.02, 9).withBandwidth(100_000_000, 100_000_000));
        List<CompletableFuture<Boolean>> clients = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            byte[] payload = new byte[100_000];
            new Random(i).nextBytes(payload);
            clients.add(CompletableFuture.supplyAsync(() -> echoesIntact(payload), pool));
        }

        for (CompletableFuture<Boolean> client : clients) {
            assertThat(client.get(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(proxy.connectionsAccepted()).isEqualTo(40);
    }

    /** What the lost segments of a burst cost: RTO if the last is lost, else one fast-retransmit RTT. */
    private static long responsePenalty(LossModel down, int segments, long rtt) {
        boolean anyLost = false;
        boolean lastLost = false;
        for (int i = 0; i < segments; i++) {
            lastLost = down.nextIsLost();
            anyLost |= lastLost;
        }
        if (lastLost) {
            return rtt + LossModel.MIN_RTO_NANOS;
        }
        return anyLost ? rtt : 0;
    }

    private boolean echoesIntact(byte[] payload) {
        try (Socket socket = net.connect()) {
            Thread writer = new Thread(() -> {
                try {
                    socket.getOutputStream().write(payload);
                    socket.shutdownOutput();
                } catch (IOException e) {
                    // the reader sees the broken stream
                }
            });
            writer.start();
            byte[] echoed = socket.getInputStream().readAllBytes();
            writer.join();
            return Arrays.equals(echoed, payload);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static LinkProfile profile(int rttMillis, double loss, long seed) {
        return LinkProfile.ideal().withName("test").withRtt(Duration.ofMillis(rttMillis)).withLoss(loss).withSeed(seed);
    }

    private static long exchange(Socket socket) throws IOException {
        return ProxyFixture.roundTrip(socket, 100);
    }

    private static byte[] sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }
}
