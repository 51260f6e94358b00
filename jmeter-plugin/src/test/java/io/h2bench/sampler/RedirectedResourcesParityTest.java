package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * "Redirect Automatically" on a page's resources (issue 40): the resource's hops go on the engine of
 * the sample's protocol, as its main request's do, not on Jetty's HttpClient (nor refused over
 * HTTP/3), and its sub-result reads as HttpClient4's beside it on the same peer.
 */
class RedirectedResourcesParityTest {

    private SamplerPair pair;

    @BeforeEach
    void startPair() throws Exception {
        pair = new SamplerPair(true);
    }

    @AfterEach
    void stopPair() {
        pair.close();
    }

    @ParameterizedTest
    @CsvSource({"HTTP_1_1, h1-own", "HTTP_2, h2-own", "H2C, h2-own", "H2C_UPGRADE, h2-own", "HTTP_3, h3-netty"})
    void shouldFollowAResourcesRedirectsOnItsProtocolsEngineLikeHttpClient4WhenRedirectedAutomatically(
            ProtocolMode mode, String engine) {
        SamplerPair.Results results = pair.sample(mode, "/page", sampler -> {
            sampler.setAutoRedirects(true);
            sampler.setImageParser(true);
        });

        HTTPSampleResult ours = resource(results.h2bench());
        HTTPSampleResult theirs = resource(results.httpClient4());
        assertThat(ours.getSamplerData()).contains("Engine: " + engine + "\n");
        assertThat(ours.isSuccessful()).as(ours.getResponseDataAsString()).isTrue().isEqualTo(theirs.isSuccessful());
        assertThat(ours.getResponseCode()).isEqualTo(theirs.getResponseCode()).isEqualTo("200");
        assertThat(ours.getResponseMessage()).isEqualTo(theirs.getResponseMessage());
        // The URL the last hop reached: /hops?n=2 -> /hops?n=1 -> /hops?n=0 -> /echo.
        assertThat(ours.getURL().getFile()).isEqualTo(theirs.getURL().getFile()).isEqualTo("/echo");
        assertThat(ours.getSampleLabel()).endsWith("/hops?n=2");
        assertThat(ours.getContentType()).isEqualTo(theirs.getContentType());
        assertThat(firstLine(ours)).isEqualTo(firstLine(theirs)).isEqualTo("GET /echo");
        assertThat(ours.getRedirectLocation()).isEqualTo(theirs.getRedirectLocation()).isNull();
    }

    /** The page's image: the last of the page's sub-results (the first is the page's own response). */
    private static HTTPSampleResult resource(HTTPSampleResult page) {
        SampleResult[] parts = page.getSubResults();
        assertThat(parts).as(page.getResponseMessage()).hasSizeGreaterThanOrEqualTo(2);
        return (HTTPSampleResult) parts[parts.length - 1];
    }

    /** What the peer's /echo says it received: the method and target. */
    private static String firstLine(HTTPSampleResult result) {
        return result.getResponseDataAsString().lines().findFirst().orElse("");
    }
}
