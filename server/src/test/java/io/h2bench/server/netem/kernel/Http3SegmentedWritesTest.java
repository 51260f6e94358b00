package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.netem.LinkProfile;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The h3 listener hands the kernel each paced burst as one write, which the kernel cuts into
 * datagrams (UDP generic segmentation offload), as ngtcp2's and quic-go's servers write: with one
 * system call per datagram (Netty's NIO socket, until 2026-11-30) the server took 9.0 CPU seconds
 * per GiB of 100 concurrent 2 MiB downloads on loopback, 6.5 with it. The server namespace's UDP
 * OutDatagrams counts writes, one per segmented write; the link counts the datagrams it carried.
 */
class Http3SegmentedWritesTest {

    private static final long RTT_MS = 100;
    private static final int BODY = 2 * 1024 * 1024;

    @Test
    void shouldWriteEachBurstOfA2MbBodyInFarFewerWritesThanDatagrams(@TempDir Path downloads) throws Exception {
        Ngtcp2Client.assumeInstalled();
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(LinkProfile.ideal().withRtt(Duration.ofMillis(RTT_MS)));
        try (KernelServer server = KernelServer.start(settings, LinkOptions.defaults())) {
            assertThat(server.server().h3SegmentsWrites()).as("the listener's socket segments (Netty's epoll loaded)").isTrue();
            long writesBefore = server.snmp("Udp", "OutDatagrams");
            long datagramsBefore = server.link().counters().down().relayed();

            Ngtcp2Client h3 = Ngtcp2Client.fetch(server.host(), server.server().h3Port(), downloads, "/large-text.txt");

            assertThat(h3.status(0)).as(h3.log()).isEqualTo(200);
            assertThat(h3.body("large-text.txt")).hasSize(BODY);
            long writes = server.snmp("Udp", "OutDatagrams") - writesBefore;
            long datagrams = server.link().counters().down().relayed() - datagramsBefore;
            assertThat(datagrams).as("datagrams the link carried to the client").isGreaterThan(BODY / 1452);
            assertThat(writes).as("the server's UDP writes for %d datagrams", datagrams).isLessThan(datagrams / 3);
        }
    }
}
