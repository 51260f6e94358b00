package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

/** Seed 003's push experiment: a page and its 290 kB script, pushed with the page or requested by it. */
class PushedScriptTest extends SharedServerTest {

    @Test
    void shouldPushTheScriptWithThePageWhenAskedOverHttp2() throws Exception {
        Map<String, Integer> pushed = getCollectingPushes("/pushed-script?push=true");

        assertThat(pushed).containsOnly(Map.entry("/pushed-script.js", 290_000));
    }

    @Test
    void shouldPushNothingWhenThePageIsAskedWithoutPush() throws Exception {
        assertThat(getCollectingPushes("/pushed-script")).isEmpty();
        assertThat(getCollectingPushes("/pushed-script?push=false")).isEmpty();
    }

    @Test
    void shouldRefuseAPushValueThatIsNotABoolean() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                server.baseUri(Listener.H2).resolve("/pushed-script?push=yes")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("push must be true or false");
    }

    private static Map<String, Integer> getCollectingPushes(String path) throws Exception {
        Map<String, Integer> pushed = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> pending = new CopyOnWriteArrayList<>();
        HttpResponse.PushPromiseHandler<byte[]> handler = (initiating, promise, acceptor) -> {
            URI uri = promise.uri();
            String target = uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery();
            pending.add(acceptor.apply(HttpResponse.BodyHandlers.ofByteArray())
                    .thenAccept(r -> pushed.put(target, r.body().length)));
        };
        HttpResponse<byte[]> page = client.sendAsync(HttpRequest.newBuilder(server.baseUri(Listener.H2).resolve(path)).build(),
                HttpResponse.BodyHandlers.ofByteArray(), handler).get();
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(new String(page.body(), java.nio.charset.StandardCharsets.UTF_8)).contains("<script src=\"/pushed-script.js\">");
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get();
        return pushed;
    }
}
