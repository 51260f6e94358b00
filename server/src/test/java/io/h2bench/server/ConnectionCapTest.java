package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connection caps on every listener: silent connections from other loopback addresses
 * (127.0.0.2, 127.0.0.3; Linux routes all of 127/8 to the loopback device) beyond a cap are closed
 * at once, those within it are held, and bystanders from 127.0.0.1 are served. One log line tells of
 * the refusals, however many.
 */
class ConnectionCapTest {

    private static final int PER_CLIENT = 50;
    private static final int ATTEMPTS = 100;

    private H2BenchServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldCloseAClientsConnectionsBeyondItsCapWhileOthersAreServed(Listener listener) throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral().withConnectionCaps(1000, PER_CLIENT));
        List<SocketChannel> attackers = new ArrayList<>();
        try {
            int closedAtOnce = new Bystanders(server).survive(listener, () -> {
                attackers.addAll(connect(listener, "127.0.0.2", ATTEMPTS));
                return closedAtOnce(attackers, ATTEMPTS - PER_CLIENT);
            });

            assertThat(closedAtOnce).as("connections beyond the per-client cap, closed at once").isEqualTo(ATTEMPTS - PER_CLIENT);
            assertThat(server.refusals(listener).refused()).isEqualTo(ATTEMPTS - PER_CLIENT);
            assertThat(server.refusals(listener).lines()).as("log lines for %d refusals", ATTEMPTS - PER_CLIENT).isEqualTo(1);
        } finally {
            closeAll(attackers);
        }
    }

    @Test
    void shouldCloseConnectionsBeyondTheListenersCapWhateverTheirAddress() throws Exception {
        int cap = PER_CLIENT + 10;
        server = H2BenchServer.start(ServerSettings.ephemeral().withConnectionCaps(cap, PER_CLIENT));
        List<SocketChannel> attackers = new ArrayList<>();
        try {
            attackers.addAll(connect(Listener.H2, "127.0.0.2", ATTEMPTS));
            attackers.addAll(connect(Listener.H2, "127.0.0.3", ATTEMPTS));

            assertThat(closedAtOnce(attackers, 2 * ATTEMPTS - cap)).as("beyond %d per client, then beyond %d in all", PER_CLIENT, cap)
                    .isEqualTo(2 * ATTEMPTS - cap);
            assertThat(server.refusals(Listener.H2).lines()).isEqualTo(1);
        } finally {
            closeAll(attackers);
        }
    }

    private List<SocketChannel> connect(Listener listener, String from, int count) throws IOException {
        List<SocketChannel> channels = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            SocketChannel channel = SocketChannel.open();
            channels.add(channel);
            channel.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
            channel.connect(new InetSocketAddress("127.0.0.1", server.port(listener)));
            channel.configureBlocking(false);
        }
        return channels;
    }

    /**
     * How many of the silent connections the server ended: polled without blocking until {@code expected}
     * are, then once more a moment later, so that one closed too many shows (the held ones wait for the
     * 30 s idle timeout).
     */
    private static int closedAtOnce(List<SocketChannel> channels, int expected) throws InterruptedException {
        Set<SocketChannel> closed = new HashSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (closed.size() < expected && System.nanoTime() < deadline) {
            collectClosed(channels, closed);
            Thread.sleep(20); // polling, not a timing assertion
        }
        Thread.sleep(200); // the same: a grace for closes that would exceed the expected count
        collectClosed(channels, closed);
        return closed.size();
    }

    private static void collectClosed(List<SocketChannel> channels, Set<SocketChannel> closed) {
        ByteBuffer buffer = ByteBuffer.allocate(1);
        for (SocketChannel channel : channels) {
            if (closed.contains(channel)) {
                continue;
            }
            try {
                if (channel.read(buffer.clear()) < 0) {
                    closed.add(channel);
                }
            } catch (IOException e) {
                closed.add(channel); // reset
            }
        }
    }

    private static void closeAll(List<SocketChannel> channels) throws IOException {
        for (SocketChannel channel : channels) {
            channel.close();
        }
    }
}
