package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
