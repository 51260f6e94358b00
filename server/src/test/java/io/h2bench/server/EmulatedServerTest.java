package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.h2bench.server.netem.LinkProfile;

/** The server with the emulated network in front of every listener. */
class EmulatedServerTest {

    private static final Duration RTT = Duration.ofMillis(100);
    private static final int EXCHANGES = 3;

    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldAddTheRoundTripToEveryRequestWhenLatencyIsSet(Listener listener) throws Exception {
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(LinkProfile.ideal().withName("test").withRtt(RTT));
        try (H2BenchServer server = H2BenchServer.start(settings)) {
            HttpClient client = TestClients.jdk(HttpClient.Version.HTTP_2);
            URI uri = server.baseUri(listener).resolve("/style.css");
            get(client, uri); // opens (and for h2c upgrades) the connection

            long fastest = Long.MAX_VALUE;
            for (int i = 0; i < EXCHANGES; i++) {
                long start = System.nanoTime();
                HttpResponse<byte[]> response = get(client, uri);
                fastest = Math.min(fastest, (System.nanoTime() - start) / 1_000_000);
                assertThat(response.statusCode()).isEqualTo(200);
            }

            // One request/response exchange on a warm connection: one emulated round trip, plus loopback.
            // The fastest of a few: a busy machine adds to some exchanges, never takes from the round trip.
            assertThat(fastest).isBetween(100L, 160L);
            assertThat(server.network().rtt()).isEqualTo(RTT);
        }
    }

    private static HttpResponse<byte[]> get(HttpClient client, URI uri) throws Exception {
        return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
