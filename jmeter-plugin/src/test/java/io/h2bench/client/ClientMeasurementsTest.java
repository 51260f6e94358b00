package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.wire.WireConnection;
import io.h2bench.server.Listener;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClientMeasurementsTest extends AgainstServer {

    @ParameterizedTest
    @CsvSource({"H1,HTTP_1_1", "H1_TLS,HTTP_1_1", "H2,HTTP_2", "H2C,H2C"})
    void shouldReportConnectOnlyWhenTheConnectionIsNew(Listener listener, ProtocolMode mode) throws Exception {
        ExchangeResult first = get(listener, "/small-text.txt", mode);
        ExchangeResult second = get(listener, "/small-text.txt", mode);

        assertThat(first.newConnection()).isTrue();
        assertThat(first.connectNanos()).isPositive();
        assertThat(second.newConnection()).isFalse();
        assertThat(second.connectNanos()).isZero();
        assertThat(second.connectionId()).isEqualTo(first.connectionId());
        assertThat(server.connectionsAccepted(listener)).isEqualTo(1);
    }

    @ParameterizedTest
    @CsvSource({"H1,HTTP_1_1", "H1_TLS,HTTP_1_1", "H2,HTTP_2", "H2C,H2C"})
    void shouldKeepLatencyWithinElapsedAndCountWireBytesWhenRequestsRepeat(Listener listener, ProtocolMode mode)
            throws Exception {
        for (int i = 0; i < 10; i++) {
            ExchangeResult result = get(listener, i % 2 == 0 ? "/small-text.txt" : "/style.css", mode);

            assertThat(result.failureMessage()).isNull();
            assertThat(result.latencyNanos()).isPositive().isLessThanOrEqualTo(result.elapsedNanos());
            assertThat(result.connectNanos()).isLessThanOrEqualTo(result.latencyNanos());
            assertThat(result.sentBytes()).isPositive();
            assertThat(result.receivedBytes()).isGreaterThan(result.bodyBytes());
            assertThat(result.bodyBytes()).isPositive();
        }
    }

    @Test
    void shouldChargeTheTlsHandshakeToTheFirstExchangeWhenTheConnectionIsNew() throws Exception {
        ExchangeResult first = get(Listener.H2, "/style.css", ProtocolMode.HTTP_2);
        ExchangeResult second = get(Listener.H2, "/style.css", ProtocolMode.HTTP_2);

        // The server's certificate alone is several hundred bytes more than the second exchange's overhead.
        assertThat(first.receivedBytes() - first.bodyBytes())
                .isGreaterThan(second.receivedBytes() - second.bodyBytes() + 500);
        assertThat(first.sentBytes()).isGreaterThan(second.sentBytes());
    }

    @Test
    void shouldSeeTheDelayInLatencyWhenTheServerWaitsBeforeHeaders() throws Exception {
        get(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_2);
        ExchangeResult result = get(Listener.H2, "/option?size=1k&delay=300", ProtocolMode.HTTP_2);

        assertThat(result.latencyNanos() / 1_000_000).isBetween(290L, 1_500L);
        assertThat(result.elapsedNanos()).isGreaterThanOrEqualTo(result.latencyNanos());
        assertThat(result.bodyBytes()).isEqualTo(1024);
    }

    @Test
    void shouldReportEveryPushWhenThePageIsPushedOverH2() throws Exception {
        ExchangeResult page = get(Listener.H2, "/push", ProtocolMode.HTTP_2);

        assertThat(page.failureMessage()).isNull();
        assertThat(page.pushes()).hasSize(16);
        assertThat(page.pushes()).allSatisfy(push -> {
            assertThat(push.pushed()).isTrue();
            assertThat(push.status()).isEqualTo(200);
            assertThat(push.failureMessage()).isNull();
            assertThat(push.bodyBytes()).isPositive();
            assertThat(push.receivedBytes()).isGreaterThanOrEqualTo(push.bodyBytes());
            assertThat(push.connectionId()).isEqualTo(page.connectionId());
            assertThat(push.latencyNanos()).isLessThanOrEqualTo(push.elapsedNanos());
        });
        assertThat(page.pushes()).extracting(push -> push.uri().getPath()).contains("/style.css", "/img1.jpeg");
    }

    @Test
    void shouldRefusePushesWhenPushIsNotAccepted() throws Exception {
        URI push = URI.create(server.baseUri(Listener.H2) + "/push");
        ExchangeResult page = user.send(ExchangeRequest.get(push, ProtocolMode.HTTP_2).withAcceptPush(false));

        assertThat(page.failureMessage()).isNull();
        assertThat(page.pushes()).isEmpty();
    }

    @Test
    void shouldOpenNewConnectionsWhenTheUserIsReset() throws Exception {
        ExchangeResult before = get(Listener.H2, "/style.css", ProtocolMode.HTTP_2);
        user.reset();
        ExchangeResult after = get(Listener.H2, "/style.css", ProtocolMode.HTTP_2);

        assertThat(after.newConnection()).isTrue();
        assertThat(after.connectionId()).isNotEqualTo(before.connectionId());
        // The old connection is closed at reset, not left open until an idle timeout.
        assertThat(SharedClient.acquire().registry().byId(before.connectionId())).isNull();
        SharedClient.acquire().release();
        SharedClient.acquire().release();
        assertThat(server.connectionsAccepted(Listener.H2)).isEqualTo(2);
    }

    @Test
    void shouldKeepUsersApartAndOneH2ConnectionEachWhenManyUsersRun() throws Exception {
        List<UserConnections> users = new ArrayList<>();
        try {
            Set<Thread> threadsBefore = Thread.getAllStackTraces().keySet();
            List<CompletableFuture<ExchangeResult>> results = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                UserConnections other = UserConnections.open();
                users.add(other);
                for (int j = 0; j < 3; j++) {
                    results.add(other.sendAsync(ExchangeRequest.get(
                            URI.create(server.baseUri(Listener.H2) + "/style.css"), ProtocolMode.HTTP_2)));
                }
            }
            for (var result : results) {
                assertThat(result.get().failureMessage()).isNull();
            }
            assertThat(server.connectionsAccepted(Listener.H2)).isEqualTo(50);
            List<String> clientThreads = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> !threadsBefore.contains(thread))
                    .map(Thread::getName)
                    // The server under test (its pool, and its scheduler started lazily) is not the client.
                    .filter(name -> !name.startsWith("h2bench-server") && !name.startsWith("Scheduler-"))
                    .toList();
            // The selector, the scheduler and the bounded pool: nothing per user.
            assertThat(clientThreads).hasSizeLessThanOrEqualTo(SharedClient.MAX_THREADS + 2)
                    .allSatisfy(name -> assertThat(name).startsWith("h2bench-client"));
        } finally {
            users.forEach(UserConnections::close);
        }
    }

    @ParameterizedTest
    @CsvSource({"H1,HTTP_1_1,6", "H1_TLS,HTTP_1_1,6", "H2,HTTP_2,1", "H2C,H2C,1"})
    void shouldOpenAtMostTheAllowedConnectionsWhenOneUserSendsConcurrently(
            Listener listener, ProtocolMode mode, int expectedConnections) throws Exception {
        List<CompletableFuture<ExchangeResult>> results = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            URI uri = URI.create(server.baseUri(listener) + "/img" + (i % 15 + 1) + ".jpeg");
            results.add(user.sendAsync(ExchangeRequest.get(uri, mode)));
        }
        long newConnections = 0;
        for (var result : results) {
            ExchangeResult done = result.get();
            assertThat(done.failureMessage()).isNull();
            assertThat(done.receivedBytes()).isGreaterThanOrEqualTo(done.bodyBytes());
            newConnections += done.newConnection() ? 1 : 0;
        }
        // At most the allowed; over HTTP/1.1 more than one, but not always all six: since bodies leave the
        // server in one write (issue 41) a response can end before the sixth connection opens, and the
        // queued request then takes the freed one (5 of 6 in two fresh-clone runs of 2026-11-29).
        long accepted = server.connectionsAccepted(listener);
        assertThat(accepted).isBetween(expectedConnections == 1 ? 1L : 2L, (long) expectedConnections);
        assertThat(newConnections).as("connections the samples say they opened").isEqualTo(accepted);
    }

    @ParameterizedTest
    @CsvSource({"H1,HTTP_1_1", "H1_TLS,HTTP_1_1", "H2,HTTP_2", "H2C,H2C"})
    void shouldAddUpToTheConnectionsWireTotalsWhenRequestsShareAConnection(Listener listener, ProtocolMode mode)
            throws Exception {
        long received = 0;
        long sent = 0;
        long connectionId = 0;
        for (int i = 0; i < 5; i++) {
            ExchangeResult result = get(listener, i % 2 == 0 ? "/small-text.txt" : "/img3.jpeg", mode);
            received += result.receivedBytes();
            sent += result.sentBytes();
            connectionId = result.connectionId();
        }
        WireConnection wire = SharedClient.acquire().registry().byId(connectionId);
        try {
            assertThat(wire).isNotNull();
            assertThat(received).isEqualTo(wire.totalIn());
            // Only a WINDOW_UPDATE or PING written after the last response can be left unattributed.
            assertThat(sent).isBetween(wire.totalOut() - 64, wire.totalOut());
        } finally {
            SharedClient.acquire().release();
            SharedClient.acquire().release();
        }
    }
}
