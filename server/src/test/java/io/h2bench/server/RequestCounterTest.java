package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

class RequestCounterTest extends SharedServerTest {

    @Test
    void shouldCountEachRequestByPathAndQueryWhenRequestsArriveOnAnyListener() throws Exception {
        send(Listener.H1, "/articles/9001");
        send(Listener.H2, "/articles/9001");
        send(Listener.H2C, "/articles?count=3");

        assertThat(server.requestsReceived("/articles/9001")).isEqualTo(2);
        assertThat(server.requestsReceived("/articles?count=3")).isEqualTo(1);
        assertThat(server.requestsReceived("/articles?count=4")).isZero();
    }

    @Test
    void shouldListTheHeaderNamesARequestCarriedWhenATestAsksWhatReachedTheOrigin() throws Exception {
        client.send(HttpRequest.newBuilder(server.baseUri(Listener.H2C).resolve("/articles/9002?headers=1"))
                .header("X-Proxy-Probe", "1").build(), HttpResponse.BodyHandlers.discarding());

        assertThat(server.headerNamesReceived("/articles/9002?headers=1")).contains("x-proxy-probe", "host")
                .doesNotContain("proxy-authorization");
        assertThat(server.headerNamesReceived("/articles/9003")).isEmpty();
    }

    @Test
    void shouldRefuseToCountWhenTheSettingsDoNotAskForIt() throws Exception {
        // The server a user runs keeps no per-URL map that a long load run would grow without bound.
        assertThat(ServerSettings.defaults().countRequests()).isFalse();
        try (H2BenchServer uncounted = H2BenchServer.start(ServerSettings.ephemeral().withCountRequests(false))) {
            assertThatThrownBy(() -> uncounted.requestsReceived("/articles/1"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("countRequests");
        }
    }

    private static void send(Listener listener, String path) throws Exception {
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.baseUri(listener).resolve(path)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
    }
}
