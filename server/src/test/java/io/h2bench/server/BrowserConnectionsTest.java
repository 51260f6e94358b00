package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

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
 *
 * <p>A load that a change of the machine's network disturbed is repeated ({@link HeadlessChromium#load}).
 */
class BrowserConnectionsTest extends SharedServerTest {

    @ParameterizedTest
    @EnumSource(value = Listener.class, names = {"H1_TLS", "H2"})
    void shouldLoadEveryFileWithTheBrowsersConnectionsPerOriginWhenChromiumOpensThePage(Listener listener,
                                                                                        @TempDir Path profile)
            throws Exception {
        HeadlessChromium.assumeInstalled();
        String url = listener.scheme() + "://" + AveragePage.host(1) + ":" + server.port(listener) + AveragePage.PAGE_PATH;
        HeadlessChromium.PageLoad load = load(url, profile, "--ignore-certificate-errors");
        Map<String, Set<String>> connections = AveragePageTest.connectionsPerOrigin(server, listener);

        assertThat(load.dom()).contains("80 files on 16 origins");
        // Every file of Table 1 was asked for: the browser fetched the iframes, preloads and all.
        assertThat(AveragePageTest.requestsPerOrigin(server, listener)).isEqualTo(AveragePageTest.TABLE_1_REQUESTS);
        assertThat(connections).hasSize(16);
        assertThat(AveragePageTest.sharedConnections(connections)).as("connections shared by origins").isZero();
        int most = listener == Listener.H2 ? 1 : 6;
        assertThat(connections).allSatisfy((origin, clients) -> assertThat(clients.size()).isBetween(1, most));
    }

    @Test
    void shouldLoadTheSeedPageOverH3WhenChromiumIsForcedOntoQuic(@TempDir Path profile) throws Exception {
        HeadlessChromium.assumeInstalled();
        String origin = "h2bench.test:" + server.h3Port();

        HeadlessChromium.PageLoad load = load("https://" + origin + "/", profile,
                // QUIC ignores --ignore-certificate-errors; a pinned key is its way to trust a self-signed certificate.
                "--ignore-certificate-errors-spki-list=" + HeadlessChromium.publicKeyPin(server.tls()),
                "--origin-to-force-quic-on=" + origin);

        assertThat(load.dom()).contains("<title>h2bench test page</title>");
        // index.html, style.css and the 15 images, every one a response decoded from HTTP/3 HEADERS
        assertThat(load.events("HTTP3_HEADERS_DECODED").filter(event -> event.contains("\":status: 200\""))).hasSize(17);
    }

    /** The first load, each in a fresh profile and with the server's counts emptied, that no network change disturbed. */
    private static HeadlessChromium.PageLoad load(String url, Path profile, String... trust) throws Exception {
        return HeadlessChromium.load(url, profile, () -> AveragePageTest.forgetConnections(server), trust);
    }
}
