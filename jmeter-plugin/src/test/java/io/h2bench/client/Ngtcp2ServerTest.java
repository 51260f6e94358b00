package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sampler's HTTP/3 against an outside h3 server: Debian's ngtcp2 example server
 * ({@code gtlsserver}, package {@code ngtcp2-server}; GnuTLS and nghttp3, nothing of Jetty, quiche
 * or Netty) serving files from a directory, read also by ngtcp2's own client ({@code gtlsclient}):
 * both must get the same status and the same body bytes. Skipped where either is missing; on CI
 * (CI=true) that is a failure.
 */
class Ngtcp2ServerTest {

    private static final Path SERVER = Path.of("/usr/sbin/gtlsserver");
    private static final Path CLIENT = Path.of("/usr/bin/gtlsclient");
    private static final Pattern STATUS = Pattern.compile("http: stream 0x0 \\[:status: (\\d{3})\\]");

    @TempDir
    Path directory;
    private Process server;
    private int port;
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        for (Path tool : List.of(SERVER, CLIENT)) {
            if (!Files.isExecutable(tool) && "true".equals(System.getenv("CI"))) {
                throw new AssertionError("CI must install Debian's ngtcp2-server and ngtcp2-client (bin/test): " + tool + " is missing");
            }
            assumeTrue(Files.isExecutable(tool), tool + " is not installed (apt-get install ngtcp2-server ngtcp2-client)");
        }
        Path htdocs = Files.createDirectories(directory.resolve("htdocs"));
        byte[] object = new byte[300_000];
        new Random(21).nextBytes(object);
        Files.write(htdocs.resolve("object.bin"), object);
        Files.writeString(htdocs.resolve("index.html"), "<!doctype html><title>ngtcp2</title>\n");
        Path[] pem = PemFiles.generated(directory);
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            // gtlsserver takes a port number, not 0: a free one, closed just before it binds it
            port = probe.getLocalPort();
        }
        server = new ProcessBuilder(SERVER.toString(), "--quiet", "--htdocs=" + htdocs, "127.0.0.1", Integer.toString(port),
                pem[0].toString(), pem[1].toString())
                .redirectErrorStream(true).redirectOutput(directory.resolve("gtlsserver.log").toFile()).start();
        user = UserConnections.open();
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (user != null) {
            user.close();
        }
        if (server != null) {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/object.bin", "/", "/nothing-here"})
    void shouldGetTheStatusAndBytesNgtcp2sClientGetsWhenTheServerIsNgtcp2s(String path) throws Exception {
        Reference reference = gtlsclient(path);

        ExchangeResult result = user.send(ExchangeRequest.get(URI.create("https://127.0.0.1:" + port + path), ProtocolMode.HTTP_3)
                .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)));

        assertThat(result.failureMessage()).isNull();
        assertThat(result.httpVersion()).isEqualTo("HTTP/3");
        assertThat(result.status()).isEqualTo(reference.status());
        assertThat(result.body()).as("body of %s", path).isEqualTo(reference.body());
        if (path.equals("/object.bin")) {
            assertThat(result.body()).isEqualTo(Files.readAllBytes(directory.resolve("htdocs/object.bin")));
        }
        // Printed for the docs: what each client got.
        System.out.printf("ngtcp2 server %s: sampler %d, %d body bytes, %d UDP bytes received; gtlsclient %d, %d body bytes%n",
                path, result.status(), result.bodyBytes(), result.receivedBytes(), reference.status(), reference.body().length);
    }

    /** ngtcp2's client's status and body; it is also the probe that waits for the server to listen. */
    private Reference gtlsclient(String path) throws Exception {
        Path downloads = Files.createDirectories(directory.resolve("downloads"));
        Path log = directory.resolve("gtlsclient.log");
        for (int attempt = 0; attempt < 50; attempt++) {
            Process client = new ProcessBuilder(CLIENT.toString(), "--no-quic-dump", "--no-http-dump", "--exit-on-all-streams-close",
                    "--timeout=2s", "--download=" + downloads, "127.0.0.1", Integer.toString(port), "https://127.0.0.1:" + port + path)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                assertThat(client.waitFor(30, TimeUnit.SECONDS)).as("gtlsclient finished").isTrue();
            } finally {
                client.destroyForcibly().waitFor();
            }
            Matcher status = STATUS.matcher(Files.readString(log, StandardCharsets.UTF_8));
            if (status.find()) {
                String name = path.substring(path.lastIndexOf('/') + 1);
                Path body = downloads.resolve(name.isEmpty() ? "index.html" : name);
                return new Reference(Integer.parseInt(status.group(1)), Files.exists(body) ? Files.readAllBytes(body) : new byte[0]);
            }
            assertThat(server.isAlive()).as("gtlsserver runs (see its log in %s)", directory).isTrue();
        }
        throw new AssertionError("gtlsclient got no response from gtlsserver in 50 tries: " + Files.readString(log));
    }

    private record Reference(int status, byte[] body) {
    }
}
