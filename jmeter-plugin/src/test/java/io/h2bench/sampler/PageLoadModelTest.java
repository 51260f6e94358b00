package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.ProtocolMode;
import io.h2bench.server.Listener;
import io.h2bench.server.netem.LatencyProxy;
import io.h2bench.server.netem.LinkProfile;
import java.net.InetSocketAddress;
import java.time.Duration;
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
 * A first load straight to the server warms the JVM (parsers, JIT) so that the bands hold.
 */
class PageLoadModelTest {

    private static final long R = 200;
    private static final long SLACK = 150;

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

    private SampleResult loadThroughRelay(Listener listener, String path, ProtocolMode mode) throws Exception {
        return loadThroughRelay(listener, path, mode, "5000");
    }

    private SampleResult loadThroughRelay(Listener listener, String path, ProtocolMode mode, String connectTimeout)
            throws Exception {
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
        return sampler.sample();
    }

    @Test
    void shouldCostAboutThreeRoundTripsWhenAPageLoadsOverH2c() throws Exception {
        SampleResult page = loadThroughRelay(Listener.H2C, "/", ProtocolMode.H2C);

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17);
        assertThat(page.getTime()).isBetween(3 * R, 3 * R + SLACK);
        assertThat(relay.connectionsAccepted()).isEqualTo(1L);
    }

    @Test
    void shouldCostAboutTwoRoundTripsWhenThePageIsPushedOverH2c() throws Exception {
        SampleResult page = loadThroughRelay(Listener.H2C, "/push", ProtocolMode.H2C);

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17);
        assertThat(page.getTime()).isBetween(2 * R, 2 * R + SLACK);
        assertThat(relay.connectionsAccepted()).isEqualTo(1L);
    }

    @Test
    void shouldCostAboutSixRoundTripsWhenAPageLoadsOverHttp11WithSixConnections() throws Exception {
        SampleResult page = loadThroughRelay(Listener.H1, "/", ProtocolMode.HTTP_1_1);

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17);
        assertThat(page.getTime()).isBetween(6 * R, 6 * R + SLACK);
        assertThat(relay.connectionsAccepted()).isEqualTo(6L);
    }

    @Test
    void shouldNotTimeOutQueuedResourcesWhenTheConnectTimeoutIsShorterThanTheQueue() throws Exception {
        // Connects cost 1 R (200 ms) < 500 ms, but resources wait up to 4 R for a free connection.
        SampleResult page = loadThroughRelay(Listener.H1, "/", ProtocolMode.HTTP_1_1, "500");

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17).allSatisfy(part -> assertThat(part.isSuccessful()).isTrue());
    }
}
