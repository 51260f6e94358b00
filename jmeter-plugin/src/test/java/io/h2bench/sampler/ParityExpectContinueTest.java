package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.parity.ParityPeer;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code Expect: 100-continue} from the plan's Header Manager, as HttpClient4 sends it (HttpClient
 * 4.5's {@code HttpRequestExecutor}): the headers alone, the body after a 100 Continue or 3 s of
 * silence, no body at all when a final response comes first. The own engines carry it: h1-own over
 * HTTP/1.1, h2-own over h2 and h2c (HEADERS without END_STREAM, DATA once it may).
 */
class ParityExpectContinueTest extends ParityTestBase {

    private static final String BODY = "{\"expect\": \"100-continue\"}";

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldSendTheBodyAfterTheContinueAsHttpClient4WhenTheServerAnswers100(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/echo", this::postExpectingContinue);

        assertSameSample(results, mode);
        assertThat(ParityRequestBodiesTest.body(results.h2bench())).isEqualTo(BODY).isEqualTo(ParityRequestBodiesTest.body(results.httpClient4()));
        assertThat(ParityRequestBodiesTest.header(results.h2bench(), "Expect")).isEqualToIgnoringCase("100-continue")
                .isEqualToIgnoringCase(ParityRequestBodiesTest.header(results.httpClient4(), "Expect"));
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldKeepTheFinalResponseAsHttpClient4WhenTheServerRefusesBeforeTheBody(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/refuse", this::postExpectingContinue);

        assertThat(results.h2bench().getResponseCode()).isEqualTo("417");
        assertSameSample(results, mode);
        // The next request of the same user goes through: the connection the body never followed was not reused broken.
        SamplerPair.Results next = pair.sample(mode, "/echo", this::postExpectingContinue);
        assertSameSample(next, mode);
        assertThat(ParityRequestBodiesTest.body(next.h2bench())).isEqualTo(BODY);
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldSendTheBodyAfterTheWaitAsHttpClient4WhenTheServerIgnoresTheExpectation(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/late", this::postExpectingContinue);

        assertSameSample(results, mode);
        assertThat(ParityRequestBodiesTest.body(results.h2bench())).isEqualTo(BODY);
        // The server read nothing before LATE_MILLIS: both clients sent the body after their 3 s wait, not at once.
        assertThat(results.h2bench().getTime()).isGreaterThanOrEqualTo(ParityPeer.LATE_MILLIS);
        assertThat(results.httpClient4().getTime()).isGreaterThanOrEqualTo(ParityPeer.LATE_MILLIS);
    }

    private void postExpectingContinue(org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase sampler) {
        sampler.setMethod("POST");
        sampler.getArguments().clear();
        sampler.addNonEncodedArgument("", BODY, "");
        sampler.setPostBodyRaw(true);
        HeaderManager headers = new HeaderManager();
        headers.add(new Header("Expect", "100-continue"));
        sampler.setHeaderManager(headers);
    }

    private static void assertSameSample(SamplerPair.Results results, ProtocolMode mode) {
        HTTPSampleResult h2bench = results.h2bench();
        HTTPSampleResult httpClient4 = results.httpClient4();
        assertThat(h2bench.getResponseCode()).as(h2bench.getResponseMessage()).isEqualTo(httpClient4.getResponseCode());
        assertThat(h2bench.isSuccessful()).isEqualTo(httpClient4.isSuccessful());
        assertThat(h2bench.getResponseMessage()).isEqualTo(httpClient4.getResponseMessage());
        assertThat(h2bench.getSamplerData()).contains("Engine: " + (mode == ProtocolMode.HTTP_1_1 ? "h1-own" : "h2-own") + "\n");
    }
}
