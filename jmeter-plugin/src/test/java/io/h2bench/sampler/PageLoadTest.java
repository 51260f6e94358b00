package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import java.util.Arrays;
import java.util.List;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PageLoadTest {

    private SamplerFixture fixture;
    private H2BenchServer server;
    private Http2Sampler sampler;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("page");
        server = fixture.server;
        sampler = fixture.sampler;
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private SampleResult loadPage(Listener listener, String path, ProtocolMode mode) {
        fixture.target(listener, path, mode).setImageParser(true);
        return sampler.sample();
    }

    @Test
    void shouldLoadSeventeenObjectsOnOneConnectionWhenThePageIsLoadedOverH2() {
        SampleResult page = loadPage(Listener.H2, "/", ProtocolMode.HTTP_2);

        List<SampleResult> parts = Arrays.asList(page.getSubResults());
        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(parts).hasSize(17);
        assertThat(parts.subList(1, 17)).allSatisfy(resource -> {
            assertThat(resource.getSampleLabel()).startsWith("https://127.0.0.1:");
            assertThat(resource.isSuccessful()).isTrue();
            assertThat(resource.getBodySizeAsLong()).isPositive();
            assertThat(resource.getLatency()).isLessThanOrEqualTo(resource.getTime());
            assertThat(resource.getEndTime()).isLessThanOrEqualTo(page.getEndTime());
        });
        assertThat(server.connectionsAccepted(Listener.H2)).isEqualTo(1);
        assertThat(page.getBytesAsLong()).isEqualTo(parts.stream().mapToLong(SampleResult::getBytesAsLong).sum());
        assertThat(page.getBodySizeAsLong()).isGreaterThan(390_000);
    }

    @Test
    void shouldUseAtMostSixConnectionsWhenThePageIsLoadedOverHttp11() {
        SampleResult page = loadPage(Listener.H1, "/", ProtocolMode.HTTP_1_1);

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(17);
        assertThat(server.connectionsAccepted(Listener.H1)).isBetween(2L, 6L);
    }

    @Test
    void shouldTakeEveryResourceFromThePushesWhenThePageIsPushed() {
        SampleResult page = loadPage(Listener.H2, "/push", ProtocolMode.HTTP_2);

        List<SampleResult> parts = Arrays.asList(page.getSubResults());
        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(parts).hasSize(17);
        assertThat(parts.subList(1, 17)).allSatisfy(resource -> {
            assertThat(resource.getSamplerData()).contains("Pushed by the server").contains("Used by the page");
            assertThat(resource.isSuccessful()).isTrue();
        });
        assertThat(server.connectionsAccepted(Listener.H2)).isEqualTo(1);
    }

    @Test
    void shouldReportPushesButRequestResourcesWhenPushIsRefused() {
        sampler.setAcceptPush(false);

        SampleResult page = loadPage(Listener.H2, "/push", ProtocolMode.HTTP_2);

        assertThat(page.getSubResults()).hasSize(17);
        assertThat(Arrays.asList(page.getSubResults())).noneMatch(part -> part.getSamplerData().contains("Pushed"));
    }
}
