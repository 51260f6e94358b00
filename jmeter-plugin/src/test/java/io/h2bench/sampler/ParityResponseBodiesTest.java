package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.parity.ParityPeer;
import java.nio.charset.StandardCharsets;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Content codings of issue 12: Accept-Encoding as the plan says, wire bytes counted, bodies decoded for assertions. */
class ParityResponseBodiesTest extends ParityTestBase {

    private static final int TEXT_BYTES = ParityPeer.TEXT.getBytes(StandardCharsets.UTF_8).length;

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldSendNoAcceptEncodingWhenThePlanSetsNone(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/gzip", sampler -> { });

        assertThat(results.h2bench().getResponseHeaders()).containsIgnoringCase("X-Accept-Encoding-Received: (none)");
        assertThat(results.httpClient4().getResponseHeaders()).containsIgnoringCase("X-Accept-Encoding-Received: (none)");
        assertThat(results.h2bench().getRequestHeaders()).doesNotContainIgnoringCase("Accept-Encoding");
        assertThat(results.h2bench().getBodySizeAsLong()).isEqualTo(TEXT_BYTES);
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldSendThePlansAcceptEncodingAndDecodeForAssertionsWhenTheServerCompresses(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/gzip", sampler -> sampler.setHeaderManager(acceptEncoding("gzip, br")));
        HTTPSampleResult h2bench = results.h2bench();

        assertThat(h2bench.getResponseHeaders()).containsIgnoringCase("X-Accept-Encoding-Received: gzip, br");
        assertThat(h2bench.getResponseHeaders()).containsIgnoringCase("Content-Encoding: gzip");
        assertThat(results.httpClient4().getResponseHeaders()).containsIgnoringCase("Content-Encoding: gzip");
        assertThat(h2bench.getResponseDataAsString()).isEqualTo(ParityPeer.TEXT).isEqualTo(results.httpClient4().getResponseDataAsString());
        // What crossed the wire: the gzip stream, a tenth of the text (HttpClient4 counts the same way).
        assertThat(h2bench.getBodySizeAsLong()).isLessThan(TEXT_BYTES / 10);
        assertThat(h2bench.getBytesAsLong()).isLessThan(TEXT_BYTES / 10);
        assertThat(results.httpClient4().getBodySizeAsLong()).isLessThan(TEXT_BYTES / 10);
        if (mode == ProtocolMode.HTTP_1_1) {
            // The same response bytes over the same protocol: both count exactly what crossed.
            assertThat(h2bench.getBytesAsLong()).isEqualTo(results.httpClient4().getBytesAsLong());
        }
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldStoreTheMd5OfTheDecodedBodyWhenTheSamplerSavesHashes(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/gzip", sampler -> {
            sampler.setHeaderManager(acceptEncoding("gzip"));
            sampler.setMD5(true);
        });

        assertThat(results.h2bench().getResponseDataAsString()).isEqualTo(DigestUtils.md5Hex(ParityPeer.TEXT))
                .isEqualTo(results.httpClient4().getResponseDataAsString());
    }

    private static HeaderManager acceptEncoding(String value) {
        HeaderManager headers = new HeaderManager();
        headers.add(new Header("Accept-Encoding", value));
        return headers;
    }
}
