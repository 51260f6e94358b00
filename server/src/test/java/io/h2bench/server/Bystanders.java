package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Ordinary clients beside an attack: each asks {@code /option?delay=100}, so its normal time is the
 * server's 100 ms plus little, and an attack that slows the server shows as a multiple of it.
 */
final class Bystanders {

    private static final int REQUESTS = 6;
    private static final long HEAP_BAND = 256L * 1024 * 1024;

    private final H2BenchServer server;

    Bystanders(H2BenchServer server) {
        this.server = server;
    }

    /** Runs the attack beside bystanders and checks what the issue asks of every abuse test. */
    <T> T survive(Listener listener, Callable<T> attack) throws Exception {
        return survive(listener, (inPlace, measured) -> {
            inPlace.countDown();
            return attack.call();
        });
    }

    /**
     * The same for an attack that first builds up, then counts {@code inPlace} down while it holds the
     * server, and may hold it until {@code measured} counts down: the bystanders are done, served or failed.
     */
    <T> T survive(Listener listener, Attack<T> attack) throws Exception {
        Duration normal = medianTime(listener);
        long heapBefore = heapAfterGc();
        ExecutorService attacker = Executors.newSingleThreadExecutor();
        CountDownLatch inPlace = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        try {
            Future<T> outcome = attacker.submit(() -> attack.run(inPlace, measured));
            assertThat(inPlace.await(30, TimeUnit.SECONDS)).as("attack in place").isTrue();
            Duration during = medianTime(listener);
            measured.countDown();
            T result = outcome.get(60, TimeUnit.SECONDS);
            assertThat(during).as("bystanders' median time during the attack (normal %s ms)", normal.toMillis())
                    .isLessThanOrEqualTo(normal.multipliedBy(2));
            assertThat(heapAfterGc() - heapBefore).as("heap growth after GC").isLessThan(HEAP_BAND);
            return result;
        } finally {
            attacker.shutdownNow();
        }
    }

    /** Median of sequential requests on one connection of the JDK's client: HTTP/1.1 beside h1 attacks, h2 (TLS) beside h2 and h2c ones. */
    Duration medianTime(Listener listener) throws Exception {
        boolean http2 = listener == Listener.H2 || listener == Listener.H2C;
        HttpClient client = TestClients.jdk(http2 ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);
        URI uri = URI.create(server.baseUri(http2 ? Listener.H2 : listener) + "/option?size=1k&delay=100");
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            long start = System.nanoTime();
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            nanos.add(System.nanoTime() - start);
            assertThat(response.statusCode()).as("bystander's status").isEqualTo(200);
        }
        nanos.sort(Long::compare);
        return Duration.ofNanos(nanos.get(nanos.size() / 2));
    }

    interface Attack<T> {
        T run(CountDownLatch inPlace, CountDownLatch measured) throws Exception;
    }

    static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The fewest busy threads of {@code server} in half a second: a server finishing requests holds a few for a moment. */
    static int fewestBusyThreads(H2BenchServer server) throws InterruptedException {
        int fewest = Integer.MAX_VALUE;
        for (int sample = 0; sample < 10; sample++) {
            fewest = Math.min(fewest, server.busyThreads());
            Thread.sleep(50); // sampling, not a timing assertion
        }
        return fewest;
    }
}
