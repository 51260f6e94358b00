package io.h2bench.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.h2bench.client.UserConnections;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The client's sent and received byte counts against a tshark capture of the same exchanges:
 * they must agree within 1 %. The capture is read before the connections close, since the
 * closing GOAWAY and close_notify belong to no exchange.
 */
class WireBytesTest {

    private static H2BenchServer server;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(LoopbackCapture.available(), "tshark cannot capture on loopback here");
        server = H2BenchServer.start(ServerSettings.ephemeral());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "H1,     HTTP_1_1,    /small-text.txt",
        "H1_TLS, HTTP_1_1,    /small-text.txt",
        "H2,     HTTP_2,      /small-text.txt",
        "H2C,    H2C,         /small-text.txt",
        "H2C,    H2C_UPGRADE, /small-text.txt",
        "H2,     HTTP_2,      /push",
        "H2,     HTTP_2,      /large-text.txt",
    })
    void shouldCountTheBytesACaptureSeesWhenRequestsRunInSequence(Listener listener, ProtocolMode mode, String path) throws Exception {
        int port = server.port(listener);
        List<ExchangeResult> results = new ArrayList<>();
        Map<String, Long> wire;
        try (LoopbackCapture capture = LoopbackCapture.start(List.of(port)); UserConnections user = UserConnections.open()) {
            for (int i = 0; i < 5; i++) {
                ExchangeResult result = user.send(ExchangeRequest.get(URI.create(server.baseUri(listener) + path), mode));
                assertThat(result.failureMessage()).isNull();
                results.add(result);
                results.addAll(result.pushes());
            }
            // Before the user closes: the closing GOAWAY and close_notify belong to no exchange.
            wire = capture.countSoFar();
        }

        long sent = results.stream().mapToLong(ExchangeResult::sentBytes).sum();
        long received = results.stream().mapToLong(ExchangeResult::receivedBytes).sum();
        // Printed for the docs: how close the sampler's counts are to the capture.
        System.out.printf("wire bytes %s %s %s: sent %d, capture %d; received %d, capture %d%n",
                listener.id(), mode, path, sent, wire.get(port + ">"), received, wire.get(port + "<"));
        assertThat((double) sent).as("sent vs capture").isCloseTo(wire.get(port + ">"), within(wire.get(port + ">") * 0.01));
        assertThat((double) received).as("received vs capture").isCloseTo(wire.get(port + "<"), within(wire.get(port + "<") * 0.01));
    }
}
