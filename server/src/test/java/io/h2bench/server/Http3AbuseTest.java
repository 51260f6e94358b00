package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 38, robustness: no QUIC client can hold the h3 listener, as none can hold the TCP ones. In
 * each attack an h3 bystander on a new connection is served within 2 s, the TCP bystanders within
 * twice their normal time ({@link Bystanders}), and the heap stays within its band.
 */
class Http3AbuseTest {

    /** Issue 38's bound on an h3 bystander's whole fetch, handshake included, during an attack. */
    private static final Duration H3_BYSTANDER = Duration.ofSeconds(2);
    private static final long TIMEOUT_SECONDS = 10;

    private static H2BenchServer server;
    private static RawH3Client bystander;

    @BeforeAll
    static void start() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral());
        bystander = RawH3Client.start();
        h3BystanderTime(); // the JIT's first pass over QUIC on both sides
    }

    @AfterAll
    static void stop() {
        bystander.close();
        server.close();
    }

    @Test
    void shouldServeBystandersWhenAFloodOfBogusInitialsComesFromManyPorts() throws Exception {
        new Bystanders(server).survive(Listener.H2, (inPlace, measured) -> {
            List<DatagramChannel> ports = new ArrayList<>();
            try {
                for (int i = 0; i < 200; i++) {
                    ports.add(DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0)));
                }
                Random random = new Random(38);
                InetSocketAddress listener = new InetSocketAddress("127.0.0.1", server.h3Port());
                for (int i = 0; i < 5_000; i++) {
                    ports.get(i % ports.size()).send(bogusInitial(random), listener);
                }
                inPlace.countDown();
                // Go on flooding while the bystanders are measured.
                for (int i = 0; measured.getCount() > 0 && i < 200_000; i++) {
                    ports.get(i % ports.size()).send(bogusInitial(random), listener);
                    if (i % 1_000 == 0) {
                        assertThat(h3BystanderTime()).as("h3 bystander during the flood").isLessThan(H3_BYSTANDER);
                    }
                }
                return null;
            } finally {
                for (DatagramChannel port : ports) {
                    port.close();
                }
            }
        });
    }

    @Test
    void shouldServeBystandersWhenAThousandQuicConnectionsStayIdle() throws Exception {
        try (RawH3Client idle = RawH3Client.start()) {
            new Bystanders(server).survive(Listener.H2, () -> {
                List<RawH3Client.Connection> connections = new ArrayList<>();
                for (int i = 0; i < 1_000; i++) {
                    connections.add(idle.connect(server.h3Port()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
                }
                assertThat(h3BystanderTime()).as("h3 bystander beside 1,000 idle connections").isLessThan(H3_BYSTANDER);
                return connections.size();
            });
        }
    }

    @Test
    void shouldServeBystandersWhenClientsStopAcknowledgingLargeResponses() throws Exception {
        try (RawH3Client gone = RawH3Client.start()) {
            new Bystanders(server).survive(Listener.H2, (inPlace, measured) -> {
                for (int i = 0; i < 20; i++) {
                    RawH3Client.Connection connection = gone.connect(server.h3Port()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    connection.request(RawH3Client.get(uri("/option?size=10m")));
                    connection.abandon(); // its 10 MB wait for ACKs that never come: quiche's PTO backs off
                }
                inPlace.countDown();
                assertThat(h3BystanderTime()).as("h3 bystander beside 20 silent clients").isLessThan(H3_BYSTANDER);
                return null;
            });
        }
    }

    /** A new connection's fetch of 1 kB after the server's 100 ms: handshake, request and wait. */
    private static Duration h3BystanderTime() throws Exception {
        long start = System.nanoTime();
        RawH3Client.Exchange exchange = bystander.connect(server.h3Port()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .request(RawH3Client.get(uri("/option?size=1k&delay=100")));
        assertThat(exchange.response().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(200);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static URI uri(String path) {
        return URI.create(server.h3BaseUri() + path);
    }

    /**
     * 1,200 bytes that parse as a QUIC v1 Initial (long header, a fresh 8-byte connection ID) but whose
     * protected payload is noise: the server derives the Initial keys, fails to open it, and must drop it.
     */
    private static ByteBuffer bogusInitial(Random random) {
        ByteBuffer packet = ByteBuffer.allocate(1200);
        packet.put((byte) 0xc3).putInt(1);
        byte[] id = new byte[8];
        random.nextBytes(id);
        packet.put((byte) 8).put(id).put((byte) 8).put(id);
        packet.put((byte) 0); // no token
        int length = packet.remaining() - 2;
        packet.putShort((short) (0x4000 | length));
        byte[] noise = new byte[packet.remaining()];
        random.nextBytes(noise);
        packet.put(noise);
        return packet.flip();
    }
}
