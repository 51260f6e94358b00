package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Ngtcp2Client;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.netem.LinkProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * quiche does not send again a FIN-only STREAM frame whose packet was lost: it counts the FIN
 * delivered once the bytes before it are. With the FIN written after each response's bytes, 4 of 20
 * page loads at 5 % loss behind this link waited for gtlsclient's idle timeout with every byte
 * received (none of 20 from gtlsserver on the same link). The listener now sends the FIN in the
 * frame of the bytes that complete the declared length ({@code FinWithLastBytes}); this counts, in
 * gtlsclient's log, the request streams whose FIN came alone, without waiting for a loss to hit one.
 */
class Http3FinTest {

    @Test
    void shouldEndEachResponseInTheFrameOfItsLastBytesWhenItsLengthIsDeclared(@TempDir Path downloads) throws Exception {
        Ngtcp2Client.assumeInstalled();
        LinkProfile link = LinkProfile.ideal().withRtt(Duration.ofMillis(100));
        try (KernelServer server = KernelServer.start(ServerSettings.ephemeral().withNetwork(link), LinkOptions.defaults())) {
            // seed 000's page, all at once as in the loads that stalled: the first small responses' FINs left alone
            String[] page = Stream.concat(Stream.of("/", "/style.css"), IntStream.rangeClosed(1, 15).mapToObj(i -> "/img" + i + ".jpeg"))
                    .toArray(String[]::new);
            for (int load = 0; load < 3; load++) {
                Ngtcp2Client h3 = Ngtcp2Client.fetch(server.host(), server.server().h3Port(), downloads, page);

                assertThat(h3.status(page.length - 1)).isEqualTo(200);
                assertThat(h3.finOnlyFramesReceived()).as(() -> "FIN-only frames; gtlsclient's log ends:\n" + h3.logTail(15)).isZero();
            }
        }
    }
}
