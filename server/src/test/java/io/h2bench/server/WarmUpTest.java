package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.h2bench.server.h3.QuicOptions;

class WarmUpTest {

    @Test
    void shouldMakeItsConnectionsToEveryListenerBeforeItIsReadyWhenAskedTo() throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral().withWarmUp(3))) {
            WarmUp.Result warmUp = server.warmUp();

            assertThat(warmUp.failure()).isNull();
            // the four TCP listeners and the h3 one
            assertThat(warmUp.connections()).isEqualTo(3 * (Listener.values().length + 1));
            assertThat(warmUp.describe()).startsWith("15 connections to its own listeners in ");
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
            assertThat(server.requestsReceived("/option?size=100")).as("the h3 warm-up's small requests").isZero();
        }
    }

    @Test
    void shouldLeaveTheQlogDirectoryToTheClientsWhenWarmedUp(@TempDir Path qlogs) throws Exception {
        ServerSettings settings = ServerSettings.ephemeral().withWarmUp(2).withQuic(QuicOptions.defaults().withQlogDirectory(qlogs));
        try (H2BenchServer server = H2BenchServer.start(settings)) {
            assertThat(server.warmUp().connections()).isEqualTo(2 * (Listener.values().length + 1));
            assertThat(qlogs).isEmptyDirectory();

            try (RawH3Client client = RawH3Client.start()) {
                RawH3Client.Connection connection = client.connect(server.h3Port()).get(10, TimeUnit.SECONDS);
                assertThat(connection.request(RawH3Client.get(server.h3BaseUri().resolve("/small-text.txt"))).response()
                        .get(10, TimeUnit.SECONDS)).isEqualTo(200);
                connection.close();
            }
            assertThat(qlogs).as("the client's connection, and only it, logged").isNotEmptyDirectory();
            try (var files = Files.list(qlogs)) {
                assertThat(files.count()).isEqualTo(1);
            }
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
