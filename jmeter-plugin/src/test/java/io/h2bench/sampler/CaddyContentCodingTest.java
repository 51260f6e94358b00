package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Content codings a server not h2bench's own chooses (issue 39): Debian's Caddy with
 * {@code encode zstd gzip} compresses a text file as the plan's Accept-Encoding allows, over
 * HTTP/1.1 and h2c, and the sampler decodes it for assertions (zstd, which Chrome has offered since
 * 2024, HttpClient4 5.6.3 leaves coded) while counting the compressed bytes on the wire.
 */
class CaddyContentCodingTest {

    private static final Path CADDY = Path.of("/usr/bin/caddy");

    @TempDir
    static Path directory;
    private static OutsideServer caddy;
    private static byte[] text;
    private Http2Sampler sampler;

    @BeforeAll
    static void start() throws Exception {
        OutsideServer.require(CADDY, "caddy");
        InProcessJMeter.init();
        Path htdocs = Files.createDirectories(directory.resolve("htdocs"));
        text = lines().getBytes(StandardCharsets.UTF_8);
        Files.write(htdocs.resolve("text.txt"), text);
        int port = OutsideServer.freePort();
        Path config = directory.resolve("Caddyfile");
        Files.writeString(config, caddyfile(port, htdocs));
        caddy = OutsideServer.start(List.of(CADDY.toString(), "run", "--config", config.toString(), "--adapter", "caddyfile"),
                directory, port, directory.resolve("caddy.log"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (caddy != null) {
            caddy.close();
        }
    }

    @AfterEach
    void stopUser() {
        if (sampler != null) {
            sampler.threadFinished();
            sampler.testEnded();
        }
    }

    @ParameterizedTest
    @CsvSource({"zstd, HTTP_1_1", "zstd, H2C", "gzip, HTTP_1_1", "gzip, H2C"})
    void shouldDecodeTheBodyForAssertionsWhenCaddyCompressesIt(String coding, ProtocolMode mode) {
        HTTPSampleResult result = sample(coding, mode);

        assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        assertThat(result.getResponseHeaders()).containsIgnoringCase("Content-Encoding: " + coding);
        assertThat(DigestUtils.sha256Hex(result.getResponseData())).isEqualTo(DigestUtils.sha256Hex(text));
        // What crossed the wire is the compressed body (words from a small vocabulary: about a third).
        assertThat(result.getBodySizeAsLong()).isLessThan(text.length / 2);
    }

    private HTTPSampleResult sample(String acceptEncoding, ProtocolMode mode) {
        sampler = new Http2Sampler();
        sampler.setName("caddy " + acceptEncoding);
        sampler.setMethod("GET");
        sampler.setProtocol("http");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(caddy.port());
        sampler.setPath("/text.txt");
        sampler.setHttpVersion(mode);
        HeaderManager headers = new HeaderManager();
        headers.add(new Header("Accept-Encoding", acceptEncoding));
        sampler.setHeaderManager(headers);
        return (HTTPSampleResult) sampler.sample();
    }

    /**
     * Caddy on plain HTTP (no admin endpoint, no certificates), h2c offered ("h2c" works only beside
     * "h2" in Caddy 2.6.2's list), files from {@code htdocs} compressed as the client allows.
     */
    private static String caddyfile(int port, Path htdocs) {
        return "{\n\tadmin off\n\tauto_https off\n\tstorage file_system " + directory.resolve("data") + "\n"
                + "\tservers {\n\t\tprotocols h1 h2 h2c\n\t}\n}\n"
                + "http://127.0.0.1:" + port + " {\n\troot * " + htdocs + "\n\tencode zstd gzip\n\tfile_server\n}\n";
    }

    /** About 650 kB of text lines: larger than zstd's and HTTP/2's first windows, compressible as a page is. */
    private static String lines() {
        Random random = new Random(39);
        List<String> words = List.of("alpha", "beta", "gamma", "delta", "h2bench", "zstd", "caddy", "frame", "window", "stream");
        return IntStream.range(0, 6000)
                .mapToObj(line -> IntStream.range(0, 12)
                        .mapToObj(word -> words.get(random.nextInt(words.size())) + random.nextInt(1000))
                        .collect(Collectors.joining(" ")))
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
