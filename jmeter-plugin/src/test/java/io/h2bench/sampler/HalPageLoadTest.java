package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Seed 004's REST collection loaded as a browser loads it: {@code /articles?count=25} is the page,
 * the {@code href}s of its HAL {@code _links} are its resources, found by the sampler itself (the
 * in-process JMeter has only the stock HTML and CSS parsers). Requests are counted on the server.
 */
class HalPageLoadTest {

    private static final int ITEMS = 25;
    private static final String COLLECTION = "/articles?count=" + ITEMS;

    private SamplerFixture fixture;

    @BeforeEach
    void startServer() throws Exception {
        fixture = new SamplerFixture("collection page");
    }

    @AfterEach
    void stopServer() {
        fixture.close();
    }

    /** The sampler on the collection with "Retrieve All Embedded Resources" on. */
    private Http2Sampler collectionPage(Listener listener, ProtocolMode mode) {
        Http2Sampler sampler = fixture.target(listener, COLLECTION, mode);
        sampler.setImageParser(true);
        return sampler;
    }

    @Test
    void shouldLoadEveryItemOnOneConnectionWhenTheCollectionIsLoadedOverH2() {
        SampleResult page = collectionPage(Listener.H2, ProtocolMode.HTTP_2).sample();

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(page.getSubResults()).hasSize(1 + ITEMS);
        assertThat(items(page)).extracting(SampleResult::getSampleLabel)
                .containsExactlyElementsOf(IntStream.rangeClosed(1, ITEMS).mapToObj(id -> url(Listener.H2, id)).toList());
        assertThat(items(page)).allSatisfy(item -> {
            assertThat(item.getResponseCode()).isEqualTo("200");
            assertThat(item.getBodySizeAsLong()).isPositive();
            assertThat(item.getEndTime()).isLessThanOrEqualTo(page.getEndTime());
        });
        assertThat(fixture.server.connectionsAccepted(Listener.H2)).isEqualTo(1);
        IntStream.rangeClosed(1, ITEMS).forEach(id ->
                assertThat(fixture.server.requestsReceived("/articles/" + id)).as("requests for item %d", id).isEqualTo(1));
    }

    @Test
    void shouldUseAtMostSixConnectionsWhenTheCollectionIsLoadedOverHttp11() {
        SampleResult page = collectionPage(Listener.H1, ProtocolMode.HTTP_1_1).sample();

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(items(page)).hasSize(ITEMS).allSatisfy(item -> assertThat(item.getResponseCode()).isEqualTo("200"));
        assertThat(fixture.server.connectionsAccepted(Listener.H1)).isBetween(2L, 6L);
    }

    @Test
    void shouldTakeEveryItemFromThePushesWhenTheCollectionAsksForPushes() {
        HeaderManager headers = new HeaderManager();
        headers.add(new Header("Prefer-Push", "item"));
        Http2Sampler sampler = collectionPage(Listener.H2, ProtocolMode.HTTP_2);
        sampler.setHeaderManager(headers);

        SampleResult page = sampler.sample();

        assertThat(page.isSuccessful()).as(page.getResponseMessage()).isTrue();
        assertThat(items(page)).hasSize(ITEMS).allSatisfy(item -> {
            assertThat(item.getSamplerData()).contains("Pushed by the server").contains("Used by the page");
            assertThat(item.getResponseCode()).isEqualTo("200");
        });
        // The server counts its pushed streams too: one each, and not a second one from the client.
        IntStream.rangeClosed(1, ITEMS).forEach(id ->
                assertThat(fixture.server.requestsReceived("/articles/" + id)).as("pushes and requests for item %d", id).isEqualTo(1));
    }

    @Test
    void shouldFetchOnlyTheMatchingItemsWhenTheUrlFiltersNarrowThePage() {
        Http2Sampler sampler = collectionPage(Listener.H2, ProtocolMode.HTTP_2);
        sampler.setEmbeddedUrlRE(".*/articles/1[0-9]");
        sampler.setEmbeddedUrlExcludeRE(".*/articles/1[5-9]");

        SampleResult page = sampler.sample();

        assertThat(items(page)).extracting(SampleResult::getSampleLabel)
                .containsExactly(url(Listener.H2, 10), url(Listener.H2, 11), url(Listener.H2, 12),
                        url(Listener.H2, 13), url(Listener.H2, 14));
        assertThat(fixture.server.requestsReceived("/articles/1")).isZero();
        assertThat(fixture.server.requestsReceived("/articles/15")).isZero();
    }

    @Test
    void shouldRequestNoItemWhenEmbeddedResourcesAreOff() {
        Http2Sampler sampler = collectionPage(Listener.H2, ProtocolMode.HTTP_2);
        sampler.setImageParser(false);

        SampleResult result = sampler.sample();

        assertThat(result.getSubResults()).isEmpty();
        assertThat(fixture.server.requestsReceived("/articles/1")).isZero();
    }

    /** The page's item sub-results (the first sub-result is the collection itself). */
    private static List<SampleResult> items(SampleResult page) {
        return Arrays.stream(page.getSubResults()).filter(part -> part.getSampleLabel().contains("/articles/")).toList();
    }

    private String url(Listener listener, int id) {
        return fixture.server.baseUri(listener) + "/articles/" + id;
    }
}
