package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.h2bench.server.objects.AveragePage;

/**
 * A real browser (Debian's headless Chromium) loads seed 001's page from
 * {@code domain1.h2bench.test}, every name mapped to loopback by {@code --host-resolver-rules} and
 * every other name refused; the server counts the connections each origin saw. And it loads seed
 * 000's page over h3 alone, its net log telling which protocol carried each response. Skipped where
 * no {@code chromium} is installed.
 */
class BrowserConnectionsTest extends SharedServerTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @ParameterizedTest
    @EnumSource(value = Listener.class, names = {"H1_TLS", "H2"})
    void shouldLoadEveryFileWithTheBrowsersConnectionsPerOriginWhenChromiumOpensThePage(Listener listener,
                                                                                        @TempDir Path profile)
            throws Exception {
        assumeChromium();
        String url = listener.scheme() + "://" + AveragePage.host(1) + ":" + server.port(listener) + AveragePage.PAGE_PATH;
        String dom = load(url, profile, "--ignore-certificate-errors");
        Map<String, Set<String>> connections = AveragePageTest.connectionsPerOrigin(server, listener);

        assertThat(dom).contains("80 files on 16 origins");
        // Every file of Table 1 was asked for: the browser fetched the iframes, preloads and all.
        assertThat(AveragePageTest.requestsPerOrigin(server, listener)).isEqualTo(AveragePageTest.TABLE_1_REQUESTS);
        assertThat(connections).hasSize(16);
        assertThat(AveragePageTest.sharedConnections(connections)).as("connections shared by origins").isZero();
        int most = listener == Listener.H2 ? 1 : 6;
        assertThat(connections).allSatisfy((origin, clients) -> assertThat(clients.size()).isBetween(1, most));
    }

    @Test
    void shouldLoadTheSeedPageOverH3WhenChromiumIsForcedOntoQuic(@TempDir Path profile) throws Exception {
        assumeChromium();
        String origin = "h2bench.test:" + server.h3Port();
        Path netLog = profile.resolve("net-log.json");

        String dom = load("https://" + origin + "/", profile,
                // QUIC ignores --ignore-certificate-errors; a pinned key is its way to trust a self-signed certificate.
                "--ignore-certificate-errors-spki-list=" + publicKeyPin(server.tls()),
                "--origin-to-force-quic-on=" + origin, "--log-net-log=" + netLog);

        assertThat(dom).contains("<title>h2bench test page</title>");
        // index.html, style.css and the 15 images, every one a response decoded from HTTP/3 HEADERS
        assertThat(http3Responses(netLog, 200)).isEqualTo(17);
    }

    private static void assumeChromium() {
        if (!Files.isExecutable(CHROMIUM) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install Debian's chromium (bin/test): " + CHROMIUM + " is missing");
        }
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed (apt-get install chromium)");
    }

    /** The base64 SHA-256 of the certificate's public key, as {@code --ignore-certificate-errors-spki-list} takes it. */
    private static String publicKeyPin(TlsMaterial tls) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            store.load(in, tls.password().toCharArray());
        }
        byte[] key = store.getCertificate(store.aliases().nextElement()).getPublicKey().getEncoded();
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(key));
    }

    /** HTTP/3 responses with {@code status} in a Chromium net log (one event a line: its type is a number the log's constants name). */
    private static long http3Responses(Path netLog, int status) throws IOException {
        String log = Files.readString(netLog, StandardCharsets.UTF_8);
        Matcher type = Pattern.compile("\"HTTP3_HEADERS_DECODED\":(\\d+)").matcher(log);
        assertThat(type.find()).as("HTTP3_HEADERS_DECODED among the net log's event types").isTrue();
        String event = "\"type\":" + type.group(1) + "}";
        return log.lines().filter(line -> line.contains(event) && line.contains("\":status: " + status + "\"")).count();
    }

    private static String load(String url, Path profile, String... trustAndLogging) throws IOException, InterruptedException {
        Path out = profile.resolve("dom.html");
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(),
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-extensions",
                "--user-data-dir=" + profile.resolve("user"),
                // Every *.h2bench.test to loopback, any other name unresolvable: no traffic leaves the machine.
                "--host-resolver-rules=MAP h2bench.test 127.0.0.1, MAP *.h2bench.test 127.0.0.1, MAP * ~NOTFOUND"));
        command.addAll(List.of(trustAndLogging));
        command.addAll(List.of("--dump-dom", url));
        Process chromium = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(profile.resolve("chromium.log").toFile())
                .start();
        try {
            assertThat(chromium.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        } finally {
            chromium.destroyForcibly().waitFor();
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
