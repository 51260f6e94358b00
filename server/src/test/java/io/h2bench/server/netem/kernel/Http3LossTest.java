package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Listener;
import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.netem.LinkProfile;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * h3 under loss does not stall (issue 21): a listener that sends what an ACK released (a wider
 * window, packets to retransmit) only when a stream writes or on quiche's timer (Jetty 12.1.5's, until
 * 2026-11-28) delivered the objects behind 5 % loss in groups seconds apart. The same objects over h2
 * on the same link (the JDK's client, one TCP connection) are timed beside them.
 */
class Http3LossTest {

    private static final Duration RTT = Duration.ofMillis(50);
    private static final double LOSS = 0.05;
    /** 8 objects of 50 kB, about seed 000's page in bytes, on one connection over either protocol. */
    private static final int OBJECTS = 8;
    private static final int OBJECT_BYTES = 50_000;
    private static final int ROUNDS = 3;
    /** A fetch that did not finish: gtlsclient's 30 s, or its 10 s without a packet. */
    private static final long STALLED = 30_000;

    @Test
    void shouldFinishEveryFetchWhenTheLinkLosesFivePercent(@TempDir Path downloads) throws Exception {
        Ngtcp2Client.assumeInstalled();
        LinkProfile lossy = LinkProfile.ideal().withName("50 ms, 5 %").withRtt(RTT).withLoss(LOSS);
        try (KernelServer server = KernelServer.start(lossy)) {
            String[] paths = paths();
            List<Long> h2 = new ArrayList<>();
            List<Long> h3 = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                h2.add(h2Millis(server, paths));
                h3.add(h3Millis(server, Files.createDirectory(downloads.resolve("round-" + round)), paths));
                System.out.printf("%d x %d B at %s, round %d: h2 %d ms, h3 %d ms%n",
                        OBJECTS, OBJECT_BYTES, lossy.describe(), round, h2.get(round), h3.get(round));
            }
            // A stalled fetch runs past gtlsclient's 30 s. h3 is still slower than h2 here (2.1 to 3.1 s
            // against 0.6 to 1.0 s in the Netty listener's first run, 5 to 12 s on Jetty's), gtlsclient's
            // own lost handshake packets included, so the bound is "finishes", not h2's time.
            assertThat(h3).as("h3 ms %s against h2 ms %s", h3, h2).allSatisfy(ms -> assertThat(ms).isLessThan(STALLED));
        }
    }

    private static String[] paths() {
        String[] paths = new String[OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            paths[i] = "/option?size=" + OBJECT_BYTES + "&n=" + i;
        }
        return paths;
    }

    /** A new JDK client (one TCP + TLS connection) fetching every path at once; ms until the last body. */
    private static long h2Millis(KernelServer server, String[] paths) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                // As long as gtlsclient gets: at 5 % loss a SYN or handshake flight lost twice costs
                // seconds of backoff, and 10 s once timed out the peer and failed the build.
                .sslContext(LinkTls.trusting(server.server().tls())).connectTimeout(Duration.ofMillis(STALLED)).build();
        String base = "https://" + server.host() + ":" + server.port(Listener.H2);
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<byte[]>>> responses = Arrays.stream(paths)
                .map(path -> client.sendAsync(HttpRequest.newBuilder(URI.create(base + path)).build(),
                        HttpResponse.BodyHandlers.ofByteArray()))
                .toList();
        for (CompletableFuture<HttpResponse<byte[]>> response : responses) {
            assertThat(response.get().body()).hasSize(OBJECT_BYTES);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    /**
     * gtlsclient (one QUIC connection) fetching every path; ms until it exits with every body, or
     * {@link #STALLED} when it did not within its 30 s.
     */
    private static long h3Millis(KernelServer server, Path downloads, String[] paths) throws Exception {
        long start = System.nanoTime();
        Ngtcp2Client h3;
        try {
            h3 = Ngtcp2Client.fetch(server.host(), server.server().h3Port(), downloads, paths);
        } catch (IOException notFinished) {
            return STALLED;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        for (int i = 0; i < paths.length; i++) {
            if (h3.status(i) != 200) {
                return STALLED; // gtlsclient gave up: 10 s without a packet from the server
            }
        }
        return millis;
    }

}
