package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;

import io.h2bench.server.objects.SeedPage;

/**
 * Bystanders that load seed 000's page as a first visit does: a new client, new connections (six
 * on HTTP/1.1, one on HTTP/2), the HTML, then its 16 resources at once. Behind an emulated round
 * trip the time of a load is a few round trips, so a server that makes them wait shows as a multiple.
 */
final class SeedPageLoads {

    private static final int LOADS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final H2BenchServer server;

    SeedPageLoads(H2BenchServer server) {
        this.server = server;
    }

    /**
     * The slowest of {@value #LOADS} cold loads on every listener, the listeners loaded at the same time:
     * the slowest, because a starved server delays the first loads and a median would hide them.
     */
    Map<Listener, Duration> slowestOnEveryListener() throws Exception {
        Map<Listener, CompletableFuture<Duration>> pending = new EnumMap<>(Listener.class);
        for (Listener listener : Listener.values()) {
            pending.put(listener, CompletableFuture.supplyAsync(() -> slowest(listener)));
        }
        Map<Listener, Duration> slowest = new EnumMap<>(Listener.class);
        for (Map.Entry<Listener, CompletableFuture<Duration>> entry : pending.entrySet()) {
            slowest.put(entry.getKey(), entry.getValue().get(LOADS * TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        }
        return slowest;
    }

    private Duration slowest(Listener listener) {
        List<Long> nanos = new ArrayList<>();
        try {
            for (int i = 0; i < LOADS; i++) {
                nanos.add(load(listener));
            }
        } catch (Exception e) {
            throw new IllegalStateException("seed page load on " + listener.id() + " failed: " + e, e);
        }
        return Duration.ofNanos(nanos.stream().mapToLong(Long::longValue).max().orElseThrow());
    }

    /** One cold page load; the client's own start and stop are not timed. */
    private long load(Listener listener) throws Exception {
        HttpClient client = client(listener);
        try {
            URI base = server.baseUri(listener);
            long start = System.nanoTime();
            ContentResponse html = client.newRequest(base.resolve("/")).timeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).send();
            List<CompletableFuture<ContentResponse>> resources = new ArrayList<>();
            for (String path : SeedPage.get().dependencies()) {
                resources.add(new CompletableResponseListener(client.newRequest(base.resolve(path))
                        .timeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS), 1 << 20).send());
            }
            assertThat(html.getStatus()).as("seed page on %s", listener.id()).isEqualTo(200);
            for (CompletableFuture<ContentResponse> resource : resources) {
                assertThat(resource.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).getStatus()).isEqualTo(200);
            }
            return System.nanoTime() - start;
        } finally {
            client.stop();
        }
    }

    private static HttpClient client(Listener listener) throws Exception {
        HttpClient client = TestClients.jetty(listener);
        client.setMaxConnectionsPerDestination(listener == Listener.H1 || listener == Listener.H1_TLS ? 6 : 1);
        client.start();
        return client;
    }
}
