package io.h2bench.sampler;

import static io.h2bench.sampler.ParityRequestBodiesTest.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.parity.ParityPeer;
import org.apache.jmeter.protocol.http.control.AuthManager;
import org.apache.jmeter.protocol.http.control.Authorization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Authorization Manager of issue 12: Digest answered after the challenge, Basic sent preemptively, as HttpClient4. */
class ParityAuthorizationTest extends ParityTestBase {

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldAnswerTheDigestChallengeWhenTheManagerHasDigestCredentials(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/digest/echo",
                sampler -> sampler.setAuthManager(manager(AuthManager.Mechanism.DIGEST, mode)));

        assertThat(results.httpClient4().getResponseCode()).isEqualTo("200");
        assertThat(results.h2bench().getResponseCode()).as(results.h2bench().getResponseHeaders()).isEqualTo("200");
        assertThat(header(results.h2bench(), "Authorization")).startsWith("Digest username=\"" + ParityPeer.USER + "\"");
        assertThat(header(results.httpClient4(), "Authorization")).startsWith("Digest username=\"" + ParityPeer.USER + "\"");
        // The request shown is the answered one, as HttpClient4 shows it.
        assertThat(results.h2bench().getRequestHeaders()).contains("Authorization: Digest username=");
        assertThat(results.httpClient4().getRequestHeaders()).contains("Authorization: Digest username=");
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldSendAsManyRequestsAsHttpClient4WhenTheSameUserSamplesTheDigestRealmAgain(ProtocolMode mode) {
        for (int sample = 0; sample < 3; sample++) {
            SamplerPair.Results results = pair.sample(mode, "/digest/echo",
                    sampler -> sampler.setAuthManager(manager(AuthManager.Mechanism.DIGEST, mode)));
            assertThat(results.h2bench().getResponseCode()).isEqualTo("200").isEqualTo(results.httpClient4().getResponseCode());
        }

        // HttpClient4 is challenged on every sample too (6 requests for 3 samples, seen here): no extra round trip.
        assertThat(pair.peer.requests("/digest/echo", "-")).isEqualTo(6)
                .isEqualTo(pair.peer.requests("/digest/echo", "Apache-HttpClient"));
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldSendBasicBeforeAnyChallengeWhenTheManagerHasBasicCredentials(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/echo",
                sampler -> sampler.setAuthManager(manager(AuthManager.Mechanism.BASIC, mode)));

        assertThat(header(results.h2bench(), "Authorization")).startsWith("Basic ")
                .isEqualTo(header(results.httpClient4(), "Authorization"));
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldFailLikeHttpClient4WhenTheDigestPasswordIsWrong(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/digest/echo",
                sampler -> sampler.setAuthManager(manager(AuthManager.Mechanism.DIGEST, mode, "wrong")));

        assertThat(results.h2bench().getResponseCode()).isEqualTo("401").isEqualTo(results.httpClient4().getResponseCode());
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldFailSayingSoWhenTheChallengedEntryIsKerberos(ProtocolMode mode) {
        pair.h2bench().setAuthManager(manager(AuthManager.Mechanism.KERBEROS, mode));
        pair.h2bench().setHttpVersion(mode);
        pair.h2bench().setProtocol(mode == ProtocolMode.HTTP_2 ? "https" : "http");
        pair.h2bench().setDomain("127.0.0.1");
        pair.h2bench().setPort(pair.peer.port(mode == ProtocolMode.HTTP_2));
        pair.h2bench().setPath("/digest/echo");

        org.apache.jmeter.samplers.SampleResult result = pair.h2bench().sample();

        assertThat(result.isSuccessful()).isFalse();
        assertThat(result.getResponseMessage()).contains("Kerberos, which the h2bench sampler does not negotiate");
    }

    private AuthManager manager(AuthManager.Mechanism mechanism, ProtocolMode mode) {
        return manager(mechanism, mode, ParityPeer.PASSWORD);
    }

    private AuthManager manager(AuthManager.Mechanism mechanism, ProtocolMode mode, String password) {
        Authorization entry = new Authorization();
        entry.setURL(pair.peer.origin(mode == ProtocolMode.HTTP_2));
        entry.setUser(ParityPeer.USER);
        entry.setPass(password);
        entry.setMechanism(mechanism);
        AuthManager manager = new AuthManager();
        manager.addAuth(entry);
        return manager;
    }
}
