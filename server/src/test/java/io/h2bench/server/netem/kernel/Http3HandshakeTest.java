package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.netem.LinkProfile;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new QUIC connection costs one round trip, as maintained servers serve it, so a first small
 * response over h3 takes two where TCP and TLS 1.3 take three: h3's best-known advantage. The
 * listener sends a Retry (one more round trip) only when asked to validate addresses. Measured by
 * ngtcp2's client behind a 100 ms kernel link: on its own log (the response's first packet) and as
 * a user waits, from its process's start to its exit.
 */
class Http3HandshakeTest {

    private static final long RTT_MS = 100;
    /**
     * Process start, key generation and exit around the two round trips: issue 38's 30 ms on an idle
     * machine (223 to 256 ms in h3-peers.sh's runs), 88 in a fresh-clone run at load average 10; under
     * a third round trip either way, which a Retry costs before any of it.
     */
    private static final long SLACK_MS = RTT_MS - 1;

    @Test
    void shouldAnswerANewConnectionsFirstRequestInTwoRoundTripsWhenNoRetryIsAsked(@TempDir Path downloads) throws Exception {
        Ngtcp2Client.assumeInstalled();
        try (KernelServer server = start(QuicOptions.defaults())) {
            fetch(server, downloads);
            Ngtcp2Client fastest = fastestOf(5, server, downloads);

            assertThat(fastest.receivedRetry()).as("a Retry in gtlsclient's log").isFalse();
            assertThat(fastest.millisToStatus(0)).as("first packet to the response (ms)").isLessThan(2 * RTT_MS + RTT_MS / 2);
            assertThat(fastest.elapsedMillis()).as("process start to exit (ms)").isLessThanOrEqualTo(2 * RTT_MS + SLACK_MS);
        }
    }

    @Test
    void shouldValidateTheAddressWithARetryFirstWhenAsked(@TempDir Path downloads) throws Exception {
        Ngtcp2Client.assumeInstalled();
        try (KernelServer server = start(QuicOptions.defaults().withRetry(true))) {
            Ngtcp2Client h3 = fetch(server, downloads);

            assertThat(h3.receivedRetry()).as("a Retry in gtlsclient's log").isTrue();
            assertThat(h3.millisToStatus(0)).as("first packet to the response (ms)").isGreaterThanOrEqualTo(3 * RTT_MS);
        }
    }

    private static KernelServer start(QuicOptions quic) throws Exception {
        LinkProfile link = LinkProfile.ideal().withRtt(Duration.ofMillis(RTT_MS));
        return KernelServer.start(ServerSettings.ephemeral().withNetwork(link).withQuic(quic), LinkOptions.defaults());
    }

    /** The quickest of {@code runs} new connections: a busy machine only adds. */
    private static Ngtcp2Client fastestOf(int runs, KernelServer server, Path downloads) throws Exception {
        Ngtcp2Client fastest = null;
        for (int i = 0; i < runs; i++) {
            Ngtcp2Client run = fetch(server, downloads);
            if (fastest == null || run.elapsedMillis() < fastest.elapsedMillis()) {
                fastest = run;
            }
        }
        return fastest;
    }

    private static Ngtcp2Client fetch(KernelServer server, Path downloads) throws Exception {
        Ngtcp2Client h3 = Ngtcp2Client.fetch(server.host(), server.server().h3Port(), downloads, "/option?size=100");
        assertThat(h3.status(0)).as(h3::log).isEqualTo(200);
        return h3;
    }
}
