package io.h2bench.client;

import io.h2bench.server.H2BenchServer;
import io.h2bench.server.NetworkEngine;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.netem.LinkProfile;
import io.h2bench.server.netem.kernel.LinkOptions;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The project's server on ephemeral ports behind a kernel link of round trip {@code rtt}, no rate
 * limit, no loss. Where the engine cannot start (no root, no /dev/net/tun) the test skips with the
 * reason, except on CI (CI=true), where that is a failure.
 */
public final class KernelLinkServer {

    private KernelLinkServer() {
    }

    public static H2BenchServer start(String name, Duration rtt) throws Exception {
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(LinkProfile.ideal().withName(name).withRtt(rtt));
        try {
            return H2BenchServer.start(settings, new NetworkEngine(NetworkEngine.Kind.KERNEL, LinkOptions.defaults()));
        } catch (IOException unavailable) {
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail("the kernel engine must start on CI: " + unavailable.getMessage(), unavailable);
            }
            Assumptions.abort("kernel engine unavailable here: " + unavailable.getMessage());
            throw unavailable;
        }
    }
}
