package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.ProtocolMode;
import io.h2bench.server.Listener;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Page loads through a relay adding a known round trip R = 200 ms (cleartext, so no TLS round
 * trips; the relay accepts TCP at once, so TCP connects cost nothing). Models:
 * <ul>
 *   <li>h2c page: the server's SETTINGS (1 R: Jetty's client waits for them before its first
 *       request), the page (1 R), every resource at once (1 R) = 3 R;</li>
 *   <li>pushed page: SETTINGS (1 R), then the page and its 16 pushes in one round trip = 2 R;</li>
 *   <li>HTTP/1.1 with 6 connections: the page (1 R), then 16 resources in ceil(16 / 6) = 3 rounds = 4 R.</li>
 * </ul>
 * A first load straight to the server warms the JVM (parsers, JIT) so that the bands hold.
 */
class PageLoadModelTest {

    private static final long ONE_WAY = 100;
    private static final long R = 2 * ONE_WAY;
    private static final long SLACK = 150;

    private SamplerFixture fixture;
    private DelayingRelay relay;

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
        Http2Sampler sampler = fixture.target(listener, path, mode);
        sampler.setImageParser(true);
        sampler.sample();
        sampler.threadFinished();
        relay = new DelayingRelay(fixture.server.port(listener), ONE_WAY);
        sampler.setPort(relay.port());
        sampler.setImageParser(true);
        sampler.setConnectTimeout("5000");
        sampler.setResponseTimeout("5000");
        return sampler.sample();
    }

    @Test
    void shouldCostAboutThreeRoundTripsWhenAPageLoadsOverH2c() throws Exception {
        SampleResult page = loadThroughRelay(Listener.H2C, "/", ProtocolMode.H2C);

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17);
        assertThat(page.getTime()).isBetween(3 * R, 3 * R + SLACK);
        assertThat(relay.connections()).isEqualTo(1);
    }

    @Test
    void shouldCostAboutTwoRoundTripsWhenThePageIsPushedOverH2c() throws Exception {
        SampleResult page = loadThroughRelay(Listener.H2C, "/push", ProtocolMode.H2C);

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17);
        assertThat(page.getTime()).isBetween(2 * R, 2 * R + SLACK);
        assertThat(relay.connections()).isEqualTo(1);
    }

    @Test
    void shouldCostAboutFourRoundTripsWhenAPageLoadsOverHttp11WithSixConnections() throws Exception {
        SampleResult page = loadThroughRelay(Listener.H1, "/", ProtocolMode.HTTP_1_1);

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17);
        assertThat(page.getTime()).isBetween(4 * R, 4 * R + SLACK);
        assertThat(relay.connections()).isEqualTo(6);
    }
}
