package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.jmeter.engine.event.LoopIterationEvent;
import org.apache.jmeter.protocol.http.control.CacheManager;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JMeter's HTTP Cache Manager on a page's embedded resources: seed 004's collection loaded as a page
 * (its 25 items are the resources: the sampler's HAL links), items with a strong ETag and
 * {@code max-age=3600}. Requests are counted on the server, so "served from the cache" means none sent.
 */
class CachedPageLoadTest {

    private static final int ITEMS = 25;
    private static final String COLLECTION = "/articles?count=" + ITEMS;
    private static final String MODE = "cache_manager.cached_resource_mode";

    private SamplerFixture fixture;
    private H2BenchServer server;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("collection");
        server = fixture.server;
    }

    @AfterEach
    void stop() {
        JMeterUtils.getJMeterProperties().remove(MODE);
        JMeterUtils.getJMeterProperties().remove("RETURN_CUSTOM_STATUS.code");
        JMeterUtils.getJMeterProperties().remove("RETURN_CUSTOM_STATUS.message");
        fixture.close();
    }

    static Stream<Arguments> protocols() {
        return Stream.of(Arguments.of(Listener.H2, ProtocolMode.HTTP_2), Arguments.of(Listener.H1, ProtocolMode.HTTP_1_1));
    }

    /**
     * The plans' Cache Manager: "Use Cache-Control/Expires headers" on (fresh items are not asked for)
     * or off (every cached item is revalidated). JMeter reads that switch at each iteration start.
     */
    private Http2Sampler collectionWithCache(Listener listener, ProtocolMode mode, boolean useExpires) {
        CacheManager cache = new CacheManager();
        cache.setUseExpires(useExpires);
        cache.testIterationStart(new LoopIterationEvent(null, 1));
        Http2Sampler sampler = fixture.target(listener, COLLECTION, mode);
        sampler.setImageParser(true);
        sampler.setCacheManager(cache);
        return sampler;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void shouldSendNoRequestForFreshItemsWhenThePageIsLoadedAgain(Listener listener, ProtocolMode mode) {
        Http2Sampler sampler = collectionWithCache(listener, mode, true);

        SampleResult first = sampler.sample();
        SampleResult second = sampler.sample();

        assertThat(items(first)).hasSize(ITEMS).allSatisfy(item -> assertThat(item.getResponseCode()).isEqualTo("200"));
        // JMeter's default mode (RETURN_NO_SAMPLE): a fresh resource leaves no sample at all.
        assertThat(second.isSuccessful()).as(second.getResponseMessage()).isTrue();
        assertThat(items(second)).isEmpty();
        assertThat(server.requestsReceived(COLLECTION)).isEqualTo(2);
        IntStream.rangeClosed(1, ITEMS).forEach(id ->
                assertThat(server.requestsReceived("/articles/" + id)).as("requests for item %d", id).isEqualTo(1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void shouldRevalidateEveryItemWithItsEtagWhenCacheControlIsIgnored(Listener listener, ProtocolMode mode) {
        Http2Sampler sampler = collectionWithCache(listener, mode, false);

        sampler.sample();
        SampleResult second = sampler.sample();

        assertThat(second.isSuccessful()).as(second.getResponseMessage()).isTrue();
        assertThat(items(second)).hasSize(ITEMS).allSatisfy(item -> {
            assertThat(item.getRequestHeaders()).containsPattern("(?i)If-None-Match: \"[0-9a-f]+-[0-9a-f]+\"");
            assertThat(item.getResponseCode()).isEqualTo("304");
            assertThat(item.getBodySizeAsLong()).isZero();
            assertThat(item.getResponseData()).isEmpty();
            assertThat(item.isSuccessful()).isTrue();
        });
        IntStream.rangeClosed(1, ITEMS).forEach(id ->
                assertThat(server.requestsReceived("/articles/" + id)).as("requests for item %d", id).isEqualTo(2));
    }

    @Test
    void shouldRequestOnlyTheUncachedItemsWhenNinetyPercentAreFresh() {
        Http2Sampler sampler = collectionWithCache(Listener.H2, ProtocolMode.HTTP_2, true);
        sampler.setImageParser(false);
        sampler.setArguments(new org.apache.jmeter.config.Arguments()); // setPath(COLLECTION) parsed count=25 into the arguments
        for (int id = 1; id <= 22; id++) {
            sampler.setPath("/articles/" + id);
            assertThat(sampler.sample().getResponseCode()).isEqualTo("200");
        }
        sampler.setPath(COLLECTION);
        sampler.setImageParser(true);

        SampleResult page = sampler.sample();

        assertThat(items(page)).extracting(SampleResult::getSampleLabel)
                .containsExactly(url(23), url(24), url(25));
        assertThat(server.requestsReceived("/articles/1")).isEqualTo(1);
        assertThat(server.requestsReceived("/articles/25")).isEqualTo(1);
    }

    @Test
    void shouldReportFreshItemsAsServedFromTheCacheWhenJMeterIsSetToReturn200() {
        JMeterUtils.setProperty(MODE, "RETURN_200_CACHE");
        Http2Sampler sampler = collectionWithCache(Listener.H2, ProtocolMode.HTTP_2, true);

        sampler.sample();
        SampleResult second = sampler.sample();

        assertThat(items(second)).hasSize(ITEMS).allSatisfy(item -> {
            assertThat(item.getResponseCode()).isEqualTo("200");
            assertThat(item.getResponseMessage()).isEqualTo("(ex cache)");
            assertThat(item.getBytesAsLong()).isZero();
            assertThat(item.isSuccessful()).isTrue();
        });
        assertThat(server.requestsReceived("/articles/1")).isEqualTo(1);
    }

    @Test
    void shouldReportFreshItemsWithTheConfiguredStatusWhenJMeterIsSetToACustomStatus() {
        JMeterUtils.setProperty(MODE, "RETURN_CUSTOM_STATUS");
        JMeterUtils.setProperty("RETURN_CUSTOM_STATUS.code", "299");
        JMeterUtils.setProperty("RETURN_CUSTOM_STATUS.message", "from cache");
        Http2Sampler sampler = collectionWithCache(Listener.H2, ProtocolMode.HTTP_2, true);

        sampler.sample();
        SampleResult second = sampler.sample();

        assertThat(items(second)).hasSize(ITEMS).allSatisfy(item -> {
            assertThat(item.getResponseCode()).isEqualTo("299");
            assertThat(item.getResponseMessage()).isEqualTo("from cache");
            assertThat(item.isSuccessful()).isTrue();
        });
        assertThat(server.requestsReceived("/articles/1")).isEqualTo(1);
    }

    /** The page's item sub-results (the first sub-result is the collection itself). */
    private static List<SampleResult> items(SampleResult page) {
        return Arrays.stream(page.getSubResults()).filter(part -> part.getSampleLabel().contains("/articles/")).toList();
    }

    private String url(int id) {
        return server.baseUri(Listener.H2) + "/articles/" + id;
    }
}
