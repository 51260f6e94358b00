package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import org.apache.jmeter.protocol.http.control.DNSCacheManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How connections are made (issue 12): the h2bench sampler beside JMeter's own HttpClient4 sampler,
 * against the same real server, must reach the same outcome. The server echoes the client's IP.
 */
class ConnectionParityTest {

    private AddressEchoServer server;
    private Http2Sampler h2bench;

    @BeforeEach
    void start() throws Exception {
        InProcessJMeter.init();
        server = new AddressEchoServer();
        h2bench = new Http2Sampler();
        h2bench.setName("h2bench");
    }

    @AfterEach
    void stop() throws Exception {
        h2bench.threadFinished();
        h2bench.testEnded();
        server.close();
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "H2C"})
    void shouldConnectFromTheSourceAddressWhenTheSamplerNamesOne(ProtocolMode mode) {
        HTTPSamplerBase hc4 = aim(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4), "127.0.0.1");
        aim(h2bench, "127.0.0.1");
        h2bench.setHttpVersion(mode);
        for (HTTPSamplerBase sampler : new HTTPSamplerBase[] {hc4, h2bench}) {
            sampler.setIpSource("127.0.0.2");
            sampler.setIpSourceType(HTTPSamplerBase.SourceType.HOSTNAME.ordinal());
        }

        HTTPSampleResult theirs = (HTTPSampleResult) hc4.sample();
        HTTPSampleResult ours = (HTTPSampleResult) h2bench.sample();

        assertThat(theirs.getResponseDataAsString()).isEqualTo("127.0.0.2");
        assertThat(ours.getResponseDataAsString()).as(ours.getResponseMessage()).isEqualTo(theirs.getResponseDataAsString());
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "H2C"})
    void shouldReachAHostOfTheStaticTableWhenTheDnsCacheManagerHasOne(ProtocolMode mode) {
        HTTPSamplerBase hc4 = aim(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4), "domain1.h2bench.test");
        aim(h2bench, "domain1.h2bench.test");
        h2bench.setHttpVersion(mode);
        withStaticHost(hc4, h2bench);

        HTTPSampleResult theirs = (HTTPSampleResult) hc4.sample();
        HTTPSampleResult ours = (HTTPSampleResult) h2bench.sample();

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(ours.isSuccessful()).as(ours.getResponseMessage()).isTrue();
        assertThat(ours.getResponseDataAsString()).isEqualTo(theirs.getResponseDataAsString()).isEqualTo("127.0.0.1");
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "H2C"})
    void shouldFailWithTheHostNameWhenNeitherTheDnsCacheManagerNorTheSystemKnowsIt(ProtocolMode mode) {
        HTTPSamplerBase hc4 = aim(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4), "domain2.h2bench.test");
        aim(h2bench, "domain2.h2bench.test");
        h2bench.setHttpVersion(mode);
        withStaticHost(hc4, h2bench);

        HTTPSampleResult theirs = (HTTPSampleResult) hc4.sample();
        HTTPSampleResult ours = (HTTPSampleResult) h2bench.sample();

        assertThat(theirs.isSuccessful()).isFalse();
        assertThat(ours.isSuccessful()).isFalse();
        assertThat(ours.getResponseMessage()).contains("domain2.h2bench.test");
        assertThat(server.requests()).isZero();
    }

    /** Each sampler gets its own manager, as each JMeter thread does: domain1 is 127.0.0.1, nothing else. */
    private static void withStaticHost(HTTPSamplerBase... samplers) {
        for (HTTPSamplerBase sampler : samplers) {
            DNSCacheManager dns = new DNSCacheManager();
            dns.setCustomResolver(true);
            dns.addHost("domain1.h2bench.test", "127.0.0.1");
            sampler.setDNSResolver(dns);
        }
    }

    private HTTPSamplerBase aim(HTTPSamplerBase sampler, String host) {
        sampler.setMethod("GET");
        sampler.setProtocol("http");
        sampler.setDomain(host);
        sampler.setPort(server.port());
        sampler.setPath("/who");
        return sampler;
    }
}
