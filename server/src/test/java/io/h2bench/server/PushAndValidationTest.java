package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.Test;

/** Server push through PushBuilder, conditional requests, h2c by prior knowledge, connection counts. */
class PushAndValidationTest extends SharedServerTest {

    @Test
    void shouldPushTheSixteenPageResourcesWhenPushIsRequestedOverH2() throws Exception {
        Map<String, byte[]> pushed = getCollectingPushes(Listener.H2, "/push", Map.of());

        assertThat(pushed).hasSize(16).containsKeys("/style.css", "/img1.jpeg", "/img15.jpeg");
        assertThat(pushed.get("/img8.jpeg")).hasSize(41_900);
    }

    @Test
    void shouldPushOverH2cToo() throws Exception {
        assertThat(getCollectingPushes(Listener.H2C, "/push", Map.of())).hasSize(16);
    }

    @Test
    void shouldServeThePlainPageWithoutPushWhenTheProtocolIsHttp11() throws Exception {
        assertThat(getCollectingPushes(Listener.H1_TLS, "/push", Map.of())).isEmpty();
        assertThat(getCollectingPushes(Listener.H1, "/push", Map.of())).isEmpty();
    }

    @Test
    void shouldPushEveryItemWhenPreferPushAsksForItems() throws Exception {
        Map<String, byte[]> pushed = getCollectingPushes(Listener.H2, "/articles?count=7", Map.of("Prefer-Push", "item"));

        assertThat(pushed.keySet()).containsExactlyInAnyOrder(
                "/articles/1", "/articles/2", "/articles/3", "/articles/4", "/articles/5", "/articles/6", "/articles/7");
    }

    @Test
    void shouldPushNothingWhenPreferPushIsAbsent() throws Exception {
        assertThat(getCollectingPushes(Listener.H2, "/articles?count=7", Map.of())).isEmpty();
    }

    @Test
    void shouldAnswerNotModifiedWhenTheEtagMatches() throws Exception {
        URI item = server.baseUri(Listener.H2).resolve("/articles/3");
        HttpResponse<String> first = client.send(HttpRequest.newBuilder(item).build(), HttpResponse.BodyHandlers.ofString());
        String etag = first.headers().firstValue("etag").orElseThrow();

        HttpResponse<String> again = client.send(HttpRequest.newBuilder(item).header("If-None-Match", etag).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> other = client.send(HttpRequest.newBuilder(item).header("If-None-Match", "\"other\"").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(etag).startsWith("\"");
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(other.statusCode()).isEqualTo(200);
    }

    @Test
    void shouldEmbedTheItemsWhenTheCompoundCollectionIsAsked() throws Exception {
        URI compound = server.baseUri(Listener.H1).resolve("/articles?count=500&embed=item");
        String body = client.send(HttpRequest.newBuilder(compound).build(), HttpResponse.BodyHandlers.ofString()).body();

        assertThat(body).contains("\"_embedded\"", "\"href\":\"/articles/500\"", "\"total\":500");
    }

    @Test
    void shouldSpeakHttp2ByPriorKnowledgeOnTheH2cListener() throws Exception {
        org.eclipse.jetty.client.HttpClient jetty = new org.eclipse.jetty.client.HttpClient(
                new HttpClientTransportOverHTTP2(new HTTP2Client()));
        jetty.start();
        try {
            ContentResponse response = jetty.GET(server.baseUri(Listener.H2C).resolve("/small-text.txt"));
            assertThat(response.getVersion()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(response.getContent()).hasSize(45_056);
        } finally {
            jetty.stop();
        }
    }

    @Test
    void shouldCountEachTcpConnectionOnceWhenALayeredProtocolIsNegotiated() throws Exception {
        HttpClient fresh = TestClients.jdk(HttpClient.Version.HTTP_2);
        long before = server.connectionsAccepted(Listener.H2);
        for (int i = 0; i < 5; i++) {
            fresh.send(HttpRequest.newBuilder(server.baseUri(Listener.H2).resolve("/style.css")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
        }
        assertThat(server.connectionsAccepted(Listener.H2) - before).isEqualTo(1);
    }

    private static Map<String, byte[]> getCollectingPushes(Listener listener, String path, Map<String, String> headers)
            throws Exception {
        Map<String, byte[]> pushed = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> pending = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpResponse.PushPromiseHandler<byte[]> handler = (initiating, promise, acceptor) -> {
            CompletableFuture<HttpResponse<byte[]>> body = acceptor.apply(HttpResponse.BodyHandlers.ofByteArray());
            // Keyed by path and query: a push must name the resource alone, not carry the page's query.
            URI uri = promise.uri();
            String target = uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery();
            pending.add(body.thenAccept(r -> pushed.put(target, r.body())));
        };
        HttpRequest.Builder request = HttpRequest.newBuilder(server.baseUri(listener).resolve(path));
        headers.forEach(request::header);
        HttpResponse<byte[]> response = client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray(), handler).get();
        assertThat(response.statusCode()).isEqualTo(200);
        // Pushed responses may complete after the main one.
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get();
        return pushed;
    }
}
