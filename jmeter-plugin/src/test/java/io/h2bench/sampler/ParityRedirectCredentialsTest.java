package io.h2bench.sampler;

import static io.h2bench.sampler.ParityRequestBodiesTest.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.parity.ParityPeer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.jmeter.protocol.http.control.AuthManager;
import org.apache.jmeter.protocol.http.control.Authorization;
import org.apache.jmeter.protocol.http.control.Cookie;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

/**
 * "Redirect Automatically" with the Authorization Manager's preemptive Basic credentials, beside
 * HttpClient4, which adds them per hop for the hop's URL: a hop to the same origin carries them, a hop
 * to another origin (http to https here) does not, for a main request and for a page's resource. The
 * first request's Cookie header goes to every hop, another host's too, as HttpClient4 copies it.
 */
class ParityRedirectCredentialsTest extends ParityTestBase {

    @Test
    void shouldSendTheManagersCredentialsOnASameOriginHopLikeHttpClient4WhenRedirectedAutomatically() {
        SamplerPair.Results results = pair.sample(ProtocolMode.HTTP_1_1, "/redirect?to=/echo", this::basicForClearOrigin);

        assertThat(results.h2bench().getResponseCode()).isEqualTo("200").isEqualTo(results.httpClient4().getResponseCode());
        assertThat(header(results.h2bench(), "Authorization")).startsWith("Basic ")
                .isEqualTo(header(results.httpClient4(), "Authorization"));
    }

    @Test
    void shouldSendNoCredentialsToAnotherOriginLikeHttpClient4WhenRedirectedAutomatically() {
        String elsewhere = pair.peer.origin(true) + "/echo";

        SamplerPair.Results results = pair.sample(ProtocolMode.HTTP_1_1, "/redirect?to=" + elsewhere, this::basicForClearOrigin);

        assertThat(results.h2bench().getURL().toString()).isEqualTo(elsewhere).isEqualTo(results.httpClient4().getURL().toString());
        assertThat(results.httpClient4().getResponseDataAsString()).startsWith("GET /echo");
        assertThat(header(results.httpClient4(), "Authorization")).isNull();
        assertThat(header(results.h2bench(), "Authorization")).as(results.h2bench().getResponseDataAsString()).isNull();
    }

    @Test
    void shouldSendNoCredentialsToAnotherOriginLikeHttpClient4WhenAResourceIsRedirectedAutomatically() {
        String image = "/redirect?to=" + pair.peer.origin(true) + "/echo";

        SamplerPair.Results results = pair.sample(ProtocolMode.HTTP_1_1,
                "/page?img=" + URLEncoder.encode(image, StandardCharsets.UTF_8), sampler -> {
                    basicForClearOrigin(sampler);
                    sampler.setImageParser(true);
                });

        HTTPSampleResult ours = lastPart(results.h2bench());
        HTTPSampleResult theirs = lastPart(results.httpClient4());
        assertThat(ours.getURL()).isEqualTo(theirs.getURL());
        assertThat(theirs.getResponseDataAsString()).startsWith("GET /echo");
        assertThat(header(theirs, "Authorization")).isNull();
        assertThat(header(ours, "Authorization")).as(ours.getResponseDataAsString()).isNull();
    }

    @Test
    void shouldCarryTheFirstRequestsCookieToAnotherHostLikeHttpClient4WhenRedirectedAutomatically() {
        String elsewhere = "https://localhost:" + pair.peer.port(true) + "/echo";

        SamplerPair.Results results = pair.sample(ProtocolMode.HTTP_1_1, "/redirect?to=" + elsewhere, sampler -> {
            CookieManager cookies = new CookieManager();
            cookies.testStarted();
            cookies.add(new Cookie("parity", "first-host", "127.0.0.1", "/", false, 0));
            sampler.setCookieManager(cookies);
            sampler.setAutoRedirects(true);
        });

        assertThat(results.httpClient4().getURL().getHost()).isEqualTo("localhost");
        assertThat(header(results.httpClient4(), "Cookie")).isEqualTo("parity=first-host");
        assertThat(header(results.h2bench(), "Cookie")).as(results.h2bench().getResponseDataAsString())
                .isEqualTo(header(results.httpClient4(), "Cookie"));
    }

    /** Redirect Automatically, and a Basic entry for the peer's cleartext origin only. */
    private void basicForClearOrigin(org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase sampler) {
        Authorization entry = new Authorization();
        entry.setURL(pair.peer.origin(false));
        entry.setUser(ParityPeer.USER);
        entry.setPass(ParityPeer.PASSWORD);
        entry.setMechanism(AuthManager.Mechanism.BASIC);
        AuthManager manager = new AuthManager();
        manager.addAuth(entry);
        sampler.setAuthManager(manager);
        sampler.setAutoRedirects(true);
    }

    private static HTTPSampleResult lastPart(HTTPSampleResult page) {
        SampleResult[] parts = page.getSubResults();
        assertThat(parts).as(page.getResponseMessage()).hasSizeGreaterThanOrEqualTo(2);
        return (HTTPSampleResult) parts[parts.length - 1];
    }
}
