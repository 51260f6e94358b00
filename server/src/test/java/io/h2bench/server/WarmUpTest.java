package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WarmUpTest {

    @Test
    void shouldMakeItsConnectionsToEveryListenerBeforeItIsReadyWhenAskedTo() throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral().withWarmUp(3))) {
            WarmUp.Result warmUp = server.warmUp();

            assertThat(warmUp.failure()).isNull();
            assertThat(warmUp.connections()).isEqualTo(3 * Listener.values().length);
            assertThat(warmUp.describe()).startsWith("12 connections to its own listeners in ");
        }
    }

    @Test
    void shouldLeaveTheCountsOfConnectionsAndRequestsToTheClientsWhenWarmedUp() throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral().withWarmUp(2))) {
            for (Listener listener : Listener.values()) {
                assertThat(server.connectionsAccepted(listener)).as(listener.id()).isZero();
            }
            assertThat(server.requestsReceived("/")).isZero();
            assertThat(server.requestsReceived("/img8.jpeg")).isZero();
        }
    }

    @Test
    void shouldMakeNoConnectionWhenTestsStartTheServer() throws Exception {
        assertThat(ServerSettings.ephemeral().warmUpConnections()).isZero();
        assertThat(ServerSettings.defaults().warmUpConnections()).isEqualTo(WarmUp.DEFAULT_CONNECTIONS);

        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral())) {
            assertThat(server.warmUp().connections()).isZero();
        }
    }
}
