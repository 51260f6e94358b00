package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.net.ssl.SSLSocket;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A body leaves the server in few TLS records, as full as TLS allows, not in many short ones: a 44 kB
 * body in three (two full and the rest), a 2 MiB one with a short record no more than once per MiB.
 * Jetty cut bodies into 32 KiB pieces, each written on its own and ending in a short record over
 * TLS (on HTTP/2 too: its writes of 32 KiB of frames overran two records by 18 bytes), so a 44 kB
 * body took four records and a 2 MiB one 64 short records more than it needs (issue 41). Counted on
 * the wire by a relay that reads the record headers; the second request on a connection is counted,
 * after the handshake's records.
 */
class BodyWritesTest extends SharedServerTest {

    /** Records shorter than this carry the end of a write: a full one carries 16 KiB of data. */
    private static final int SHORT = 16_000;

    @ParameterizedTest
    @ValueSource(strings = {"/option?size=44k", "/small-text.txt"})
    void shouldSendA44kBodyInThreeRecordsWhenAskedOverH1Tls(String path) throws Exception {
        List<Integer> records = secondResponseOverH1Tls(path, 45_056);

        assertThat(records).as("record lengths").hasSize(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/option?size=2m", "/large-text.txt"})
    void shouldSendA2MiBBodyInFullRecordsWhenAskedOverH1Tls(String path) throws Exception {
        List<Integer> records = secondResponseOverH1Tls(path, 2_097_152);

        assertThat(records.stream().filter(length -> length < SHORT)).as("short records of %s", records).hasSizeLessThanOrEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/option?size=44k", "/option?size=2m", "/large-text.txt"})
    void shouldSendBodiesInFullRecordsWhenAskedOverH2(String path) throws Exception {
        try (TlsRecordRelay relay = new TlsRecordRelay(server.port(Listener.H2))) {
            HttpClient h2 = TestClients.jdk(HttpClient.Version.HTTP_2);
            HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + relay.port() + path)).build();
            h2.send(request, HttpResponse.BodyHandlers.ofByteArray());
            int before = relay.recordLengths().size();
            HttpResponse<byte[]> response = h2.send(request, HttpResponse.BodyHandlers.ofByteArray());
            List<Integer> records = relay.recordLengths().subList(before, relay.recordLengths().size());

            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            // Besides the body's own short records: the response's HEADERS, and a WINDOW_UPDATE or PING now and then.
            assertThat(records.stream().filter(length -> length < SHORT)).as("short records of %s", records).hasSizeLessThanOrEqualTo(5);
        }
    }

    /** The record lengths of a second GET for {@code path} on one h1-tls connection through a relay. */
    private static List<Integer> secondResponseOverH1Tls(String path, int bodyLength) throws IOException {
        try (TlsRecordRelay relay = new TlsRecordRelay(server.port(Listener.H1_TLS));
             SSLSocket socket = (SSLSocket) TestClients.trustAll().getSocketFactory().createSocket("127.0.0.1", relay.port())) {
            assertThat(get(socket, path)).hasSize(bodyLength);
            int before = relay.recordLengths().size();
            assertThat(get(socket, path)).hasSize(bodyLength);
            List<Integer> all = relay.recordLengths();
            return all.subList(before, all.size());
        }
    }

    /** One HTTP/1.1 GET on an open connection: the response's body, read to its Content-Length. */
    private static byte[] get(SSLSocket socket, String path) throws IOException {
        socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed in the response head: " + head);
            }
            head.write(b);
        }
        int length = head.toString(StandardCharsets.US_ASCII).lines()
                .filter(line -> line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
                .mapToInt(line -> Integer.parseInt(line.substring(line.indexOf(':') + 1).trim()))
                .findFirst().orElseThrow(() -> new IOException("no Content-Length in " + head));
        return in.readNBytes(length);
    }
}
