package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Every static object over every listener, with the protocol the listener must negotiate. */
class TestObjectsTest extends SharedServerTest {

    static Stream<Arguments> objects() {
        List<Object[]> objects = List.of(
                new Object[] {"/", "text/html", 800, 1_500},
                new Object[] {"/style.css", "text/css", 300, 600},
                new Object[] {"/img1.jpeg", "image/jpeg", 23_100, 23_100},
                new Object[] {"/img15.jpeg", "image/jpeg", 45_100, 45_100},
                new Object[] {"/inline", "text/html", 500_000, 560_000},
                new Object[] {"/push", "text/html", 800, 1_500},
                new Object[] {"/small-text.txt", "text/plain", 45_056, 45_056},
                new Object[] {"/large-text.txt", "text/plain", 2_097_152, 2_097_152},
                new Object[] {"/option?size=44k", "application/octet-stream", 45_056, 45_056},
                new Object[] {"/articles?count=25", "application/json", 500, 1_000},
                new Object[] {"/articles/7", "application/json", 100, 300},
                new Object[] {"/resources?count=150&size=0.2m&delay=30", "text/html", 8_500, 9_500},
                new Object[] {"/pushed-script", "text/html", 200, 600},
                new Object[] {"/pushed-script.js", "text/javascript", 290_000, 290_000},
                new Object[] {"/average-page", "text/html", 5_000, 12_000});
        return Stream.of(Listener.values()).flatMap(listener -> objects.stream()
                .map(o -> Arguments.of(listener, o[0], o[1], o[2], o[3])));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("objects")
    void shouldServeEveryObjectWhenAskedOnAnyListener(Listener listener, String path, String type, int min, int max)
            throws Exception {
        HttpResponse<byte[]> response = get(listener, path);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version()).isEqualTo(expectedVersion(listener));
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith(type));
        assertThat(response.body().length).isBetween(min, max);
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldServeDecodableImagesOfTheSeedSizesWhenThePageIsLoaded(Listener listener) throws Exception {
        int total = get(listener, "/").body().length + get(listener, "/style.css").body().length;
        for (int i = 1; i <= 15; i++) {
            byte[] jpeg = get(listener, "/img" + i + ".jpeg").body();
            assertThat(ImageIO.read(new ByteArrayInputStream(jpeg))).as("img%d decodes", i).isNotNull();
            assertThat(jpeg.length).isBetween(13_000, 46_000);
            total += jpeg.length;
        }
        // The seed's waterfall: 394 kB of resources, 396 kB transferred.
        assertThat(total).isBetween(393_000, 397_000);
    }

    @Test
    void shouldEmbedDistinctOptionObjectsWhenAResourcePageIsAsked() throws Exception {
        String page = new String(get(Listener.H1, "/resources?count=3&size=44k&delay=10").body(),
                java.nio.charset.StandardCharsets.UTF_8);

        assertThat(page).contains(
                "<img src=\"/option?size=44k&amp;delay=10&amp;n=1\"",
                "<img src=\"/option?size=44k&amp;delay=10&amp;n=3\"").doesNotContain("n=4");
        assertThat(get(Listener.H1, "/option?size=44k&delay=10&n=3").body()).hasSize(45_056);
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldSendTheLengthAndNoBodyWhenAskedWithHead(Listener listener) throws Exception {
        URI uri = server.baseUri(listener).resolve("/large-text.txt");
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValueAsLong("content-length")).hasValue(2_097_152L);
        assertThat(response.body()).isEmpty();
    }

    /** curl's --data-binary and an HTML form send this type: the body is the client's, not the query's. */
    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldCountAFormTypedBodyWhenItIsPostedToTheOptionObject(Listener listener) throws Exception {
        byte[] body = new byte[54_000];
        new java.util.Random(39).nextBytes(body);
        URI uri = server.baseUri(listener).resolve("/option?size=100");
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-request-body-bytes")).hasValue("54000");
        assertThat(response.body()).hasSize(100);
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldEchoTheRequestBodysLengthWhenOptionIsPostedOrFetched(Listener listener) throws Exception {
        URI uri = server.baseUri(listener).resolve("/option?size=100");
        for (int length : new int[] {0, 1, 100_000}) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[length])).build(), HttpResponse.BodyHandlers.ofByteArray());

            assertThat(response.headers().firstValue("x-request-body-bytes")).as("POST of %d bytes", length).hasValue(Integer.toString(length));
            assertThat(response.body()).hasSize(100);
        }
        assertThat(get(listener, "/option?size=100").headers().firstValue("x-request-body-bytes")).hasValue("0");
    }

    @Test
    void shouldServeTheSameTextBytesWhenRestarted() throws Exception {
        byte[] first = get(Listener.H1, "/large-text.txt").body();
        try (H2BenchServer second = H2BenchServer.start(ServerSettings.ephemeral())) {
            HttpResponse<byte[]> again = client.send(
                    HttpRequest.newBuilder(second.baseUri(Listener.H1).resolve("/large-text.txt")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(again.body()).isEqualTo(first);
        }
        assertThat(new String(first, 0, 200, java.nio.charset.StandardCharsets.US_ASCII)).matches("(?s)[A-Za-z .\\n]+");
    }

    private static HttpClient.Version expectedVersion(Listener listener) {
        return switch (listener) {
            case H1, H1_TLS -> HttpClient.Version.HTTP_1_1;
            case H2, H2C -> HttpClient.Version.HTTP_2;
        };
    }

    static HttpResponse<byte[]> get(Listener listener, String path) throws Exception {
        URI uri = server.baseUri(listener).resolve(path);
        return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
