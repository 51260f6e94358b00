package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.h2bench.server.objects.AveragePage;

/**
 * A real browser (Debian's headless Chromium) loads seed 001's page from
 * {@code domain1.h2bench.test}, every name mapped to loopback by {@code --host-resolver-rules} and
 * every other name refused; the server counts the connections each origin saw. Skipped where no
 * {@code chromium} is installed.
 */
class BrowserConnectionsTest extends SharedServerTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @ParameterizedTest
    @EnumSource(value = Listener.class, names = {"H1_TLS", "H2"})
    void shouldLoadEveryFileWithTheBrowsersConnectionsPerOriginWhenChromiumOpensThePage(Listener listener,
                                                                                        @TempDir Path profile)
            throws Exception {
        if (!Files.isExecutable(CHROMIUM) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install Debian's chromium (bin/test): " + CHROMIUM + " is missing");
        }
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed (apt-get install chromium)");
        String dom = load(listener, profile);
        Map<String, Set<String>> connections = AveragePageTest.connectionsPerOrigin(server, listener);

        assertThat(dom).contains("80 files on 16 origins");
        // Every file of Table 1 was asked for: the browser fetched the iframes, preloads and all.
        assertThat(AveragePageTest.requestsPerOrigin(server, listener)).isEqualTo(AveragePageTest.TABLE_1_REQUESTS);
        assertThat(connections).hasSize(16);
        assertThat(AveragePageTest.sharedConnections(connections)).as("connections shared by origins").isZero();
        int most = listener == Listener.H2 ? 1 : 6;
        assertThat(connections).allSatisfy((origin, clients) -> assertThat(clients.size()).isBetween(1, most));
    }

    private static String load(Listener listener, Path profile) throws IOException, InterruptedException {
        String url = listener.scheme() + "://" + AveragePage.host(1) + ":" + server.port(listener) + AveragePage.PAGE_PATH;
        Path out = profile.resolve("dom.html");
        Process chromium = new ProcessBuilder(List.of(CHROMIUM.toString(),
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-extensions",
                "--user-data-dir=" + profile.resolve("user"),
                "--ignore-certificate-errors",
                // Every *.h2bench.test to loopback, any other name unresolvable: no traffic leaves the machine.
                "--host-resolver-rules=MAP *.h2bench.test 127.0.0.1, MAP * ~NOTFOUND",
                "--dump-dom", url))
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
