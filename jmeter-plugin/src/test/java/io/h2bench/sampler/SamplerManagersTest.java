package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import org.apache.jmeter.engine.event.LoopIterationEvent;
import org.apache.jmeter.protocol.http.control.CacheManager;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.ThreadGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** JMeter's config elements and thread-group settings, seen through the sampler. */
class SamplerManagersTest {

    private SamplerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("managed");
    }

    @AfterEach
    void stop() {
        JMeterContextService.getContext().setThreadGroup(null);
        fixture.close();
    }

    @Test
    void shouldReceiveOnePushPerItemWhenTheHeaderManagerAsksForPushes() {
        HeaderManager headers = new HeaderManager();
        headers.add(new Header("Prefer-Push", "item"));
        Http2Sampler sampler = fixture.target(Listener.H2, "/articles?count=5", ProtocolMode.HTTP_2);
        sampler.setHeaderManager(headers);

        SampleResult result = sampler.sample();

        assertThat(result.isSuccessful()).isTrue();
        assertThat(result.getRequestHeaders()).contains("Prefer-Push: item");
        assertThat(result.getSubResults()).hasSize(5)
                .allSatisfy(push -> assertThat(push.getSampleLabel()).contains("/articles/"));
    }

    @Test
    void shouldOpenANewConnectionEachIterationWhenTheUserIsNotTheSame() {
        ThreadGroup group = new ThreadGroup();
        group.setIsSameUserOnNextIteration(false);
        JMeterContextService.getContext().setThreadGroup(group);
        Http2Sampler sampler = fixture.target(Listener.H2, "/style.css", ProtocolMode.HTTP_2);

        SampleResult first = sampler.sample();
        sampler.testIterationStart(new LoopIterationEvent(group, 2));
        SampleResult second = sampler.sample();

        assertThat(first.getConnectTime()).isPositive();
        assertThat(second.getConnectTime()).isPositive();
        assertThat(second.getSamplerData()).contains("(new)");
        assertThat(fixture.server.connectionsAccepted(Listener.H2)).isEqualTo(2);
    }

    @Test
    void shouldKeepTheConnectionAcrossIterationsWhenTheUserIsTheSame() {
        ThreadGroup group = new ThreadGroup();
        group.setIsSameUserOnNextIteration(true);
        JMeterContextService.getContext().setThreadGroup(group);
        Http2Sampler sampler = fixture.target(Listener.H2, "/style.css", ProtocolMode.HTTP_2);

        sampler.sample();
        sampler.testIterationStart(new LoopIterationEvent(group, 2));
        SampleResult second = sampler.sample();

        assertThat(second.getConnectTime()).isZero();
        assertThat(fixture.server.connectionsAccepted(Listener.H2)).isEqualTo(1);
    }

    @Test
    void shouldRevalidateWithTheEtagWhenTheCacheManagerHoldsTheResource() {
        CacheManager cache = new CacheManager();
        cache.setUseExpires(false);
        cache.testStarted();
        Http2Sampler sampler = fixture.target(Listener.H2, "/articles/1", ProtocolMode.HTTP_2);
        sampler.setCacheManager(cache);

        SampleResult first = sampler.sample();
        SampleResult second = sampler.sample();

        assertThat(first.getResponseCode()).isEqualTo("200");
        assertThat(second.getRequestHeaders()).containsIgnoringCase("If-None-Match");
        assertThat(second.getResponseCode()).isEqualTo("304");
        assertThat(second.isSuccessful()).isTrue();
    }
}
