package io.h2bench.server.netem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Loss as the application sees it: late, in order, intact, and as often as the seed says. */
class LossTest {

    private final ProxyFixture net = new ProxyFixture();

    @AfterEach
    void stop() throws IOException {
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
                    throw new java.io.UncheckedIOException(e);
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
