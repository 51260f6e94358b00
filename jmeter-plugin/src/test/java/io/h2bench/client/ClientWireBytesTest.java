package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The client's byte counts against an independent TCP relay on the same connection. */
class ClientWireBytesTest {

    @ParameterizedTest
    @CsvSource({"H1,HTTP_1_1", "H1_TLS,HTTP_1_1", "H2,HTTP_2", "H2C,H2C"})
    void shouldMatchWhatARelaySawWhenRequestsShareAConnection(Listener listener, ProtocolMode mode) throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral());
             CountingRelay relay = new CountingRelay(server.port(listener))) {
            UserConnections user = UserConnections.open();
            try {
                String base = (listener.secure() ? "https" : "http") + "://127.0.0.1:" + relay.port();
                long sent = 0;
                long received = 0;
                for (String path : new String[] {"/small-text.txt", "/img3.jpeg", "/style.css", "/large-text.txt"}) {
                    ExchangeResult result = user.send(ExchangeRequest.get(URI.create(base + path), mode));
                    assertThat(result.failureMessage()).isNull();
                    sent += result.sentBytes();
                    received += result.receivedBytes();
                }

                // Received: every byte the relay passed to the client, exactly. Sent: all but at most a
                // trailing WINDOW_UPDATE written after the last response, well within 1 %.
                assertThat(received).isEqualTo(relay.serverToClient());
                assertThat(sent).isBetween(relay.clientToServer() - 64, relay.clientToServer());
            } finally {
                user.close();
            }
        }
    }
}
