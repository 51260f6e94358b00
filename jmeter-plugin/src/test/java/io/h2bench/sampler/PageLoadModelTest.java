package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import io.h2bench.server.netem.LatencyProxy;
import io.h2bench.server.netem.LinkProfile;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Page loads through the project's network emulator with a round trip R = 200 ms (cleartext, so no
 * TLS round trips). The emulator charges each new TCP connection its handshake round trip. Models:
 * <ul>
 *   <li>h2c page: TCP (1 R), the page (1 R: its request leaves with the client preface, before the
 *       server's SETTINGS), every resource at once (1 R) = 3 R;</li>
 *   <li>pushed page: TCP (1 R), the page with its 16 pushes (1 R) = 2 R;</li>
 *   <li>HTTP/1.1 with 6 connections: TCP (1 R), the page (1 R), five more connections (1 R) while the
 *       first fetches one resource, then the other 15 in ceil(15 / 6) = 3 rounds = 6 R.</li>
 * </ul>
 * A first load straight to the server warms the JVM (parsers, JIT) so that the bands hold, and each
 * model is checked against the fastest of {@value #LOADS} loads, each on new connections: the model is a
 * floor that a busy machine only adds to (one load took 1,439 ms for 6 R while another build ran).
 */
class PageLoadModelTest {

    private static final long R = 200;
    private static final long SLACK = 150;
    private static final int LOADS = 3;

    private SamplerFixture fixture;
    private LatencyProxy relay;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("page");
    }

    @AfterEach
    void stop() throws Exception {
        if (relay != null) {
            relay.close();
        }
        fixture.close();
    }

    /** {@value #LOADS} loads through the relay, each on new connections; every one must load the whole page. */
    private List<SampleResult> loadsThroughRelay(Listener listener, String path, ProtocolMode mode) throws Exception {
        Http2Sampler sampler = relayed(listener, path, mode, "5000");
        List<SampleResult> loads = new ArrayList<>();
        for (int i = 0; i < LOADS; i++) {
            SampleResult page = sampler.sample();
            sampler.threadFinished(); // the next load opens new connections, as the models' first does
            assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
            assertThat(page.getSubResults()).hasSize(17);
            loads.add(page);
        }
        return loads;
    }

    private static long fastest(List<SampleResult> loads) {
        return loads.stream().mapToLong(SampleResult::getTime).min().orElseThrow();
    }

    private SampleResult loadThroughRelay(Listener listener, String path, ProtocolMode mode, String connectTimeout)
            throws Exception {
        return relayed(listener, path, mode, connectTimeout).sample();
    }

    /** A sampler warmed up straight to the server, then pointed at a new relay with R in front of it. */
    private Http2Sampler relayed(Listener listener, String path, ProtocolMode mode, String connectTimeout) throws Exception {
        Http2Sampler sampler = fixture.target(listener, path, mode);
        sampler.setImageParser(true);
        sampler.sample();
        sampler.threadFinished();
        relay = LatencyProxy.start(new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", fixture.server.port(listener)),
                LinkProfile.ideal().withRtt(Duration.ofMillis(R)));
        sampler.setPort(relay.address().getPort());
        sampler.setImageParser(true);
        sampler.setConnectTimeout(connectTimeout);
        sampler.setResponseTimeout("5000");
        return sampler;
    }

    @Test
    void shouldCostAboutThreeRoundTripsWhenAPageLoadsOverH2c() throws Exception {
        List<SampleResult> loads = loadsThroughRelay(Listener.H2C, "/", ProtocolMode.H2C);

        assertThat(fastest(loads)).isBetween(3 * R, 3 * R + SLACK);
        assertThat(relay.connectionsAccepted()).as("connections of %d loads", LOADS).isEqualTo(LOADS);
    }

    @Test
    void shouldCostAboutTwoRoundTripsWhenThePageIsPushedOverH2c() throws Exception {
        List<SampleResult> loads = loadsThroughRelay(Listener.H2C, "/push", ProtocolMode.H2C);

        assertThat(fastest(loads)).isBetween(2 * R, 2 * R + SLACK);
        assertThat(relay.connectionsAccepted()).as("connections of %d loads", LOADS).isEqualTo(LOADS);
    }

    @Test
    void shouldCostAboutSixRoundTripsWhenAPageLoadsOverHttp11WithSixConnections() throws Exception {
        List<SampleResult> loads = loadsThroughRelay(Listener.H1, "/", ProtocolMode.HTTP_1_1);

        assertThat(fastest(loads)).isBetween(6 * R, 6 * R + SLACK);
        assertThat(relay.connectionsAccepted()).as("connections of %d loads", LOADS).isEqualTo(6L * LOADS);
    }

    @Test
    void shouldNotTimeOutQueuedResourcesWhenTheConnectTimeoutIsShorterThanTheQueue() throws Exception {
        // Connects cost 1 R (200 ms) < 500 ms, but resources wait up to 4 R for a free connection.
        SampleResult page = loadThroughRelay(Listener.H1, "/", ProtocolMode.HTTP_1_1, "500");

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17).allSatisfy(part -> assertThat(part.isSuccessful()).isTrue());
    }
}
