package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** "Redirect Automatically" and "Follow Redirects" of issue 12, beside HttpClient4. */
class ParityRedirectsTest extends ParityTestBase {

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldCarryTheFinalUrlWhenRedirectedAutomatically(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/hops?n=2", sampler -> sampler.setAutoRedirects(true));

        assertThat(results.h2bench().getResponseCode()).isEqualTo("200").isEqualTo(results.httpClient4().getResponseCode());
        assertThat(results.h2bench().getURL()).isEqualTo(results.httpClient4().getURL());
        assertThat(results.h2bench().getURL().getPath()).isEqualTo("/echo");
        assertThat(results.h2bench().getSubResults()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldGiveOneSubResultPerHopLikeHttpClient4WhenFollowingRedirects(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/hops?n=2", sampler -> sampler.setFollowRedirects(true));

        assertThat(urls(results.h2bench())).isEqualTo(urls(results.httpClient4())).hasSize(5);
        assertThat(results.h2bench().getURL()).isEqualTo(results.httpClient4().getURL());
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldFailLikeHttpClient4WhenRedirectsExceedTheMaximum(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/hops?n=25", sampler -> sampler.setAutoRedirects(true));

        assertThat(results.httpClient4().isSuccessful()).isFalse();
        assertThat(results.h2bench().isSuccessful()).isFalse();
        assertThat(results.h2bench().getResponseMessage()).as(results.h2bench().getResponseDataAsString())
                .contains("Maximum redirects (20) exceeded");
        // HttpClient4 wraps it in a ClientProtocolException whose message is null; the cause is in the data.
        assertThat(results.httpClient4().getResponseDataAsString()).contains("RedirectException: Maximum redirects (20) exceeded");
    }

    @Test
    void shouldCountTheNewConnectionWhenRedirectedFromHttpToHttps() {
        String https = pair.peer.origin(true) + "/echo";
        HTTPSampleResult direct = pair.sample(ProtocolMode.HTTP_1_1, https, sampler -> { }).h2bench();
        pair.h2bench().threadFinished(); // a new user: the redirect's https hop opens its own connection

        HTTPSampleResult redirected = pair.sample(ProtocolMode.HTTP_1_1, "/redirect?to=" + https,
                sampler -> sampler.setAutoRedirects(true)).h2bench();

        assertThat(redirected.getURL().toString()).isEqualTo(https);
        assertThat(redirected.getConnectTime()).isPositive();
        // The TLS handshake of the https hop is in the bytes, plus the 302 over http.
        assertThat(redirected.getBytesAsLong()).isGreaterThan(direct.getBytesAsLong());
        assertThat(redirected.getSentBytes()).isGreaterThan(direct.getSentBytes());
    }

    private static java.util.List<String> urls(HTTPSampleResult result) {
        java.util.List<String> urls = new java.util.ArrayList<>();
        for (var sub : result.getSubResults()) {
            urls.add(((HTTPSampleResult) sub).getURL().getPath() + " " + sub.getResponseCode());
        }
        urls.add(result.getURL().getPath());
        return urls;
    }
}
