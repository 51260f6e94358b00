package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.junit.jupiter.api.Test;

/**
 * What each TCP listener keeps per connection and how many threads select for it: the causes of the
 * 100 B rows' loss at 1,000 connections (benchmarks page, server speed), guarded without timing anything.
 */
class ConnectorThreadsAndCachesTest {

    @Test
    void shouldKeepNoHeaderCachePerConnectionWhenServingHttp11() throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral())) {
            for (Listener listener : Listener.values()) {
                HttpConfiguration http = server.connector(listener).getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration();

                // Jetty's default, 1,024, gives every connection's parser a trie of its own: 1,000 of them outgrew the CPU's caches.
                assertThat(http.getHeaderCacheSize()).as(listener.id()).isZero();
            }
        }
    }

    @Test
    void shouldQueueAThousandConnectionsWhenTheyArriveAtOnce() throws Exception {
        assumeTrue(listenBacklog(0) >= 0, "no ss (iproute2) to read a listener's backlog from the kernel");

        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral())) {
            for (Listener listener : Listener.values()) {
                // The JDK's 50 dropped most of h2load's 1,000 SYNs: clients connected after its -D ended and ran on.
                assertThat(listenBacklog(server.port(listener))).as(listener.id()).isGreaterThanOrEqualTo(1024);
            }
        }
    }

    @Test
    void shouldRunJettysSelectorCountWhenNoneIsAskedFor() throws Exception {
        int jettys = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors() / 2, 200 / 16));

        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral())) {
            assertThat(server.selectorsPerListener()).isEqualTo(jettys);
        }
    }

    @Test
    void shouldRunTheAskedSelectorsOnEveryListenerWhenSet() throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral().withSelectors(2))) {
            for (Listener listener : Listener.values()) {
                assertThat(server.connector(listener).getSelectorManager().getSelectorCount()).as(listener.id()).isEqualTo(2);
            }
        }
    }

    @Test
    void shouldRefuseANegativeSelectorCount() {
        assertThatThrownBy(() -> ServerSettings.ephemeral().withSelectors(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("selectors");
    }

    /** The kernel's accept queue of the TCP listener on {@code port} (ss's Send-Q), 0 for none there, -1 without ss. */
    private static int listenBacklog(int port) throws InterruptedException {
        try {
            Process ss = new ProcessBuilder("ss", "-Hltn", "sport = :" + port).redirectErrorStream(true).start();
            List<String> lines = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            if (ss.waitFor() != 0) {
                return -1;
            }
            return lines.isEmpty() ? 0 : Integer.parseInt(lines.get(0).trim().split("\\s+")[2]);
        } catch (IOException noSs) {
            return -1;
        }
    }
}
