package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SlowReadersTest's attack over HTTP/3: QUIC connections whose request streams let the server send
 * 1 KiB of each response and never read it, so no response can finish. {@value #CONNECTIONS} times
 * {@value #STREAMS} of them are more than the server's 200 threads; a server that gave each a thread
 * would leave none for anyone else. Bystanders fetch the 44 kB text over h3 on fresh connections.
 * (That the server's stream idle timeout, 30 s, then resets the attackers' streams was seen once by
 * hand and is not checked here: the h3 listener's timeouts are not the test's to shorten.)
 */
class Http3SlowReadersTest {

    private static final int CONNECTIONS = 10;
    private static final int STREAMS = 30;
    private static final long RESPONSE_WINDOW = 1024;
    private static final String[] OBJECTS = {"/small-text.txt", "/large-text.txt"};
    private static final int LOADS = 5;
    /** Threads beyond the idle server's that the attack may hold: none is needed, Jetty's own come and go. */
    private static final int THREAD_BAND = 8;
    /** Allowed beyond twice the slowest fetch alone, for a busy machine (as SlowReadersTest's). */
    private static final Duration BUSY_MACHINE = Duration.ofMillis(500);
    private static final long TIMEOUT_SECONDS = 10;
    private static final long HEAP_BAND = 256L * 1024 * 1024;

    private static H2BenchServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral().withH3Port(Http3Listener.ON_H2_PORT));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void shouldServeBystandersAndHoldNoThreadWhenH3StreamsNeverRead() throws Exception {
        try (RawH3Client bystander = RawH3Client.start();
             RawH3Client attacker = RawH3Client.startWithResponseWindow(RESPONSE_WINDOW)) {
            slowestFetch(bystander); // the JIT's first pass over QUIC and HTTP/3, on both sides
            Duration alone = slowestFetch(bystander);
            int idleThreads = Bystanders.fewestBusyThreads(server);
            long heapBefore = Bystanders.heapAfterGc();
            long before = received();

            for (int connection = 0; connection < CONNECTIONS; connection++) {
                RawH3Client.Connection quic = attacker.connect(server.h3Port()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                for (int stream = 0; stream < STREAMS; stream++) {
                    quic.requestNeverRead(RawH3Client.get(uri(OBJECTS[stream % 2])));
                }
            }
            long taken = awaitRequests(before + CONNECTIONS * STREAMS, Duration.ofSeconds(TIMEOUT_SECONDS)) - before;
            int heldThreads = Bystanders.fewestBusyThreads(server) - idleThreads;
            Duration during = slowestFetch(bystander);
            long heapGrowth = Bystanders.heapAfterGc() - heapBefore;
            System.out.printf("h3 fetch alone %d ms, during %d ms; requests taken %d; threads held %d; heap growth %d MiB%n",
                    alone.toMillis(), during.toMillis(), taken, heldThreads, heapGrowth >> 20);

            assertThat(taken).as("attacking requests the server took").isEqualTo(CONNECTIONS * STREAMS);
            assertThat(heldThreads).as("server threads the attack holds").isLessThanOrEqualTo(THREAD_BAND);
            assertThat(during).as("slowest bystander fetch during the attack, alone %d ms", alone.toMillis())
                    .isLessThanOrEqualTo(alone.multipliedBy(2).plus(BUSY_MACHINE));
            assertThat(heapGrowth).as("heap growth after GC").isLessThan(HEAP_BAND);
        }
    }

    /** The slowest of {@value #LOADS} fetches of the 44 kB text, each on a new QUIC connection. */
    private static Duration slowestFetch(RawH3Client client) throws Exception {
        Duration slowest = Duration.ZERO;
        for (int load = 0; load < LOADS; load++) {
            long start = System.nanoTime();
            RawH3Client.Exchange exchange = client.connect(server.h3Port()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .request(RawH3Client.get(uri(OBJECTS[0])));
            assertThat(exchange.response().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(200);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            slowest = took.compareTo(slowest) > 0 ? took : slowest;
        }
        return slowest;
    }

    private static URI uri(String path) {
        return URI.create(server.h3BaseUri() + path);
    }

    /** Until the server has taken {@code expected} requests of the texts, or {@code within} passed; how many it took. */
    private static long awaitRequests(long expected, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (received() < expected && System.nanoTime() < deadline) {
            Thread.sleep(20); // polling, not a timing assertion
        }
        return received();
    }

    private static long received() {
        return server.requestsReceived(OBJECTS[0]) + server.requestsReceived(OBJECTS[1]);
    }
}
