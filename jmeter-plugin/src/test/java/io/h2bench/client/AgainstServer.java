package io.h2bench.client;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh project server on free ports and one virtual user's connections for every test. */
abstract class AgainstServer {

    protected H2BenchServer server;
    protected UserConnections user;

    @BeforeEach
    void startServerAndUser() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral());
        user = UserConnections.open();
    }

    @AfterEach
    void stopUserAndServer() {
        user.close();
        server.close();
    }

    protected ExchangeResult get(Listener listener, String path, ProtocolMode mode) throws Exception {
        return user.send(ExchangeRequest.get(URI.create(server.baseUri(listener) + path), mode));
    }
}
