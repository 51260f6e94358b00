package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.util.HTTPArgument;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A response sent before the request body was read (RFC 9113 section 8.1: the server may then reset the
 * stream with NO_ERROR, and the client must not discard the response): a 302 to a 200 KB POST.
 */
class ParityEarlyResponseTest extends ParityTestBase {

    private static final String BIG = "x".repeat(200 * 1024);

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldKeepTheResponseWhenTheServerAnswersBeforeReadingTheBody(ProtocolMode mode) {
        // The reset races the end of the response and the upload: several tries, each must succeed.
        for (int attempt = 0; attempt < 5; attempt++) {
            HTTPSampleResult result = pair.sample(mode, "/early", sampler -> {
                sampler.setMethod("POST");
                sampler.getArguments().clear();
                sampler.getArguments().addArgument(new HTTPArgument("", BIG, "", false));
                sampler.setPostBodyRaw(true);
            }).h2bench();

            // HttpClient4 is no reference here: over HTTP/1.1 it sometimes fails with a broken pipe when
            // Jetty closes the connection after its early answer (seen in this test), which RFC 9112 allows.
            assertThat(result.getResponseCode()).as(result.getResponseMessage()).isEqualTo("302");
            assertThat(result.isSuccessful()).isTrue();
            assertThat(result.getRedirectLocation()).endsWith("/echo");
        }
    }
}
