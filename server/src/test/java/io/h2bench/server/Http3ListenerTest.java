package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.h2bench.server.netem.LinkProfile;

/**
 * The h3 listener as Debian's ngtcp2 client sees it: the same bytes and the same refusals as the
 * h2 listener, on the h2 listener's port number by default, announced by Alt-Svc on both TLS
 * listeners; no h3 behind the byte proxy, which carries no UDP.
 */
class Http3ListenerTest {

    /** Request paths and the file names gtlsclient saves their bodies under. */
    private static final String[][] OBJECTS = {
        {"/", "index.html"}, {"/inline", "inline"}, {"/small-text.txt", "small-text.txt"},
        {"/large-text.txt", "large-text.txt"}, {"/img15.jpeg", "img15.jpeg"}, {"/option?size=44k", "option?size=44k"},
        {"/articles?count=3", "articles?count=3"}, {"/option?size=abc", "option?size=abc"}, {"/nothing-here", "nothing-here"},
    };

    private static H2BenchServer server;
    private static HttpClient h2;

    @BeforeAll
    static void start() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral().withH3Port(Http3Listener.ON_H2_PORT));
        h2 = TestClients.jdk(HttpClient.Version.HTTP_2);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void shouldServeTheH2ListenersBytesAndStatusesWhenNgtcp2FetchesOverH3(@TempDir Path downloads) throws Exception {
        Ngtcp2Client.assumeInstalled();
        String[] paths = java.util.Arrays.stream(OBJECTS).map(object -> object[0]).toArray(String[]::new);

        Ngtcp2Client h3 = Ngtcp2Client.fetch("127.0.0.1", server.h3Port(), downloads, paths);

        for (int i = 0; i < OBJECTS.length; i++) {
            HttpResponse<byte[]> overH2 = get(Listener.H2, OBJECTS[i][0], HttpClient.Version.HTTP_2);
            assertThat(h3.status(i)).as("status of %s over h3", OBJECTS[i][0]).isEqualTo(overH2.statusCode());
            // A stall (gtlsclient gives up after 10 s without a packet) shows as a short body: the log's end says where.
            String path = OBJECTS[i][0];
            assertThat(h3.body(OBJECTS[i][1])).as(() -> "bytes of " + path + " over h3; gtlsclient's log ends:\n" + h3.logTail(15))
                    .isEqualTo(overH2.body());
        }
        assertThat(h3.status(OBJECTS.length - 1)).isEqualTo(404);
        // Each response ends with its FIN alone: a RESET_STREAM after it (once sent when the listener left
        // Jetty's buffer unconsumed, so Jetty wrote it again and failed) makes Chromium retry the request.
        assertThat(h3.streamResetsReceived()).as(() -> "RESET_STREAM frames; gtlsclient's log ends:\n" + h3.logTail(15)).isZero();
    }

    @Test
    void shouldTakeTheH2ListenersPortNumberWhenNoneIsGiven() {
        assertThat(server.h3Port()).isEqualTo(server.port(Listener.H2));
    }

    @Test
    void shouldAnnounceH3WithAltSvcOnBothTlsListenersOverHttp11AndHttp2() throws Exception {
        String announced = "h3=\":" + server.h3Port() + "\"";
        for (Listener listener : new Listener[] {Listener.H1_TLS, Listener.H2}) {
            for (HttpClient.Version version : HttpClient.Version.values()) {
                HttpResponse<byte[]> response = get(listener, "/small-text.txt", version);
                assertThat(response.headers().allValues("alt-svc")).as("%s over %s", listener.id(), version).containsExactly(announced);
            }
        }
        assertThat(get(Listener.H1, "/small-text.txt", HttpClient.Version.HTTP_1_1).headers().allValues("alt-svc")).isEmpty();
    }

    @Test
    void shouldStartNoH3AndSayWhyWhenTheByteProxyEmulatesTheNetwork() throws Exception {
        LinkProfile slow = LinkProfile.ideal().withRtt(Duration.ofMillis(20));
        try (H2BenchServer proxied = H2BenchServer.start(ServerSettings.ephemeral().withNetwork(slow), NetworkEngine.proxy())) {
            assertThat(proxied.h3Port()).isZero();
            assertThat(proxied.h3NotStartedReason()).contains("byte proxy relays TCP only").contains("--engine kernel");
            HttpResponse<byte[]> response = h2.send(HttpRequest.newBuilder(proxied.baseUri(Listener.H2).resolve("/small-text.txt")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.headers().allValues("alt-svc")).isEmpty();
        }
    }

    private static HttpResponse<byte[]> get(Listener listener, String path, HttpClient.Version version) throws Exception {
        HttpClient client = version == HttpClient.Version.HTTP_2 ? h2 : TestClients.jdk(version);
        URI uri = server.baseUri(listener).resolve(path);
        return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
