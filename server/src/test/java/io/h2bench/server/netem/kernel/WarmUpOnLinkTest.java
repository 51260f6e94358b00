package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.WarmUp;
import io.h2bench.server.netem.LinkProfile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The warm-up behind the kernel link: inside the server's namespace, where no packet of it crosses the link. */
class WarmUpOnLinkTest {

    private static final LinkProfile SECOND_RTT = LinkProfile.ideal().withRtt(Duration.ofSeconds(1));

    @Test
    void shouldWarmUpInsideTheNamespaceWhenBehindTheLink() throws Exception {
        try (KernelServer server = KernelServer.start(ServerSettings.ephemeral().withNetwork(SECOND_RTT).withWarmUp(5),
                LinkOptions.defaults())) {
            WarmUp.Result warmUp = server.server().warmUp();

            assertThat(warmUp.failure()).isNull();
            // the four TCP listeners and the h3 one
            assertThat(warmUp.connections()).isEqualTo(5 * (Listener.values().length + 1));
            // Through the link, 25 connections two at a time would take 12 round trips of a second at least.
            assertThat(warmUp.took()).isLessThan(Duration.ofSeconds(10));
            LinkCounters counters = server.link().counters();
            assertThat(counters.up().relayed() + counters.down().relayed()).as("packets the link relayed (%s)", counters.describe())
                    .isLessThan(20);
        }
    }
}
