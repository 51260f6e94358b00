package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every bad input gets a clear status and a one-line reason, and the server keeps serving. */
class BadInputTest extends SharedServerTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "/option?size=-1          | 400 | size must be a non-negative number, was -1",
        "/option?size=abc         | 400 | size must be a non-negative number, was abc",
        "/option?size=65m         | 400 | size must be at most 64m, was 65m",
        "/option?size=1e3         | 400 | size must be a non-negative number, was 1e3",
        "/option?delay=60001      | 400 | delay must be at most 60000 ms, was 60001",
        "/option?delay=-5         | 400 | delay must be a non-negative number, was -5",
        "/articles?count=10001    | 400 | count must be from 0 to 10000, was 10001",
        "/articles?count=x        | 400 | count must be a whole number, was x",
        "/articles?embed=author   | 400 | embed must be item, was author",
        "/resources?count=0       | 400 | count must be from 1 to 10000, was 0",
        "/resources?size=big      | 400 | size must be a non-negative number, was big",
        "/resources?delay=70000   | 400 | delay must be at most 60000 ms, was 70000",
        "/articles/0              | 404 | not found: /articles/0",
        "/articles/007            | 404 | not found: /articles/007",
        "/articles/abc            | 404 | not found: /articles/abc",
        "/nothing-here            | 404 | not found: /nothing-here",
        "/img16.jpeg              | 404 | not found: /img16.jpeg",
    })
    void shouldRefuseWithAReasonWhenTheRequestIsBad(String path, int status, String reason) throws Exception {
        for (Listener listener : Listener.values()) {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(server.baseUri(listener).resolve(path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(listener.id()).isEqualTo(status);
            assertThat(response.body()).as(listener.id()).isEqualTo(reason + "\n");
        }
        assertStillServing();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/../pom.xml", "/%2e%2e/pom.xml", "/img1.jpeg/../../etc/passwd", "/%2E%2E%2Fetc%2Fpasswd",
        "/..%2f..%2fetc/passwd", "/style.css%00", "//etc/passwd"})
    void shouldNeverLeaveTheServedObjectsWhenThePathTriesToEscape(String path) throws Exception {
        // A raw socket: HTTP clients normalise such paths before sending them.
        try (Socket socket = new Socket("127.0.0.1", server.port(Listener.H1))) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(response).matches("(?s)HTTP/1\\.1 (400|404) .*").doesNotContain("root:");
        }
        assertStillServing();
    }

    private static void assertStillServing() throws Exception {
        HttpResponse<byte[]> ok = client.send(
                HttpRequest.newBuilder(server.baseUri(Listener.H2).resolve("/style.css")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(ok.statusCode()).isEqualTo(200);
    }
}
