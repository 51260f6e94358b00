package io.h2bench.sampler;

import static io.h2bench.sampler.ParityRequestBodiesTest.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.parity.ParityPeer;
import io.h2bench.parity.TempDirs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proxy credentials on the sampler's HTTP/2, beside HttpClient4 and curl, through real proxies in
 * front of the parity peer's {@code /echo} (which shows the headers the origin got): the h2c Upgrade
 * that Apache httpd carries and then tunnels ({@link ApacheForwardProxy}), the Upgrade squid declines,
 * and h2 through squid's CONNECT. The credentials go where the proxy asks for them and never reach
 * the origin, on the Upgrade's request or on the streams after it; a 407 is the sample's response
 * as HttpClient4 reports it.
 */
class ProxyCredentialsOverHttp2Test {

    private static final String USER = "tester";
    private static final String PASSWORD = "s3cret";

    private ParityPeer origin;
    private ApacheForwardProxy apache;
    private SquidProxy squid;
    private final List<HTTPSamplerBase> samplers = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        InProcessJMeter.init();
        origin = new ParityPeer(TempDirs.deletedAtExit("h2bench-proxy-credentials"));
    }

    @AfterEach
    void stop() throws Exception {
        samplers.forEach(HTTPSamplerBase::threadFinished);
        origin.close();
        if (apache != null) {
            apache.close();
        }
        if (squid != null) {
            squid.close();
        }
    }

    /**
     * The proxy's 407, then the Upgrade with the credentials, which the proxy carries to the origin:
     * after its 101 the connection is a tunnel to the origin, so the streams on it go to the origin,
     * and proxy credentials in their HEADERS would be the origin's to read.
     */
    @Test
    void shouldKeepTheProxyCredentialsOffTheStreamsWhenAProxyCarriedTheH2cUpgrade() throws Exception {
        apache = ApacheForwardProxy.start(origin.port(false), USER, PASSWORD);

        Clients clients = throughTheProxy(apache.port(), false, ProtocolMode.H2C_UPGRADE, 3);

        assertThat(clients.curl()).isEqualTo("200 2 no Proxy-Authorization");
        assertThat(clients.ours().get(0).getSamplerData()).contains("Protocol: HTTP/2.0", "Engine: h1-own>h2-own\n");
        for (HTTPSampleResult result : clients.ours().subList(1, 3)) {
            assertThat(result.getSamplerData()).contains("Protocol: HTTP/2.0", "(reused)", "Engine: h2-own\n");
        }
        // HttpClient4: asked, then with them; curl: with them at once; ours: asked, then the Upgrade with
        // them; the streams after it went through the tunnel, unseen by the proxy.
        assertThat(apache.awaitRequests(5)).containsExactly("GET 407 -", "GET 200 tester", "GET 101 tester",
                "GET 407 -", "GET 101 tester");
    }

    @Test
    void shouldReportTheProxysRefusalAsHttpClient4DoesWhenTheH2cUpgradeCarriesAWrongPassword() throws Exception {
        apache = ApacheForwardProxy.start(origin.port(false), USER, PASSWORD);

        HTTPSampleResult theirs = sample(hc4(false), apache.port(), "wrong");
        HTTPSampleResult ours = sample(h2bench(false, ProtocolMode.H2C_UPGRADE), apache.port(), "wrong");

        assertThat(theirs.getResponseCode()).isEqualTo("407");
        assertThat(ours.isSuccessful()).isFalse();
        assertThat(ours.getResponseCode()).isEqualTo(theirs.getResponseCode());
        assertThat(ours.getResponseMessage()).isEqualTo(theirs.getResponseMessage());
        assertThat(ours.getResponseHeaders()).contains("Proxy-Authenticate: Basic realm=\"h2bench\"");
    }

    /** Squid drops the hop-by-hop Upgrade (RFC 9110 7.6.1): HTTP/1.1 to the origin, the credentials on every request to squid. */
    @Test
    void shouldSendTheProxyCredentialsOnEveryRequestAndNotToTheOriginWhenTheProxyDeclinesTheUpgrade() throws Exception {
        squid = SquidProxy.start(USER, PASSWORD);

        Clients clients = throughTheProxy(squid.port(), false, ProtocolMode.H2C_UPGRADE, 2);

        assertThat(clients.curl()).isEqualTo("200 1.1 no Proxy-Authorization");
        assertThat(clients.ours().get(1).getResponseMessage()).endsWith("(h2c Upgrade declined by the server: HTTP/1.1 was used)");
        squid.awaitRequests(2 + 1 + 3);
        assertThat(squid.requestsPerConnection(3)).containsExactly(List.of("GET 407 -", "GET 200 credentials", "GET 200 credentials"));
    }

    @Test
    void shouldSendTheProxyCredentialsOnlyOnTheConnectWhenH2GoesThroughAProxy() throws Exception {
        squid = SquidProxy.start(USER, PASSWORD);

        Clients clients = throughTheProxy(squid.port(), true, ProtocolMode.HTTP_2, 2);

        assertThat(clients.curl()).isEqualTo("200 2 no Proxy-Authorization");
        assertThat(clients.ours().get(1).getSamplerData()).contains("ALPN: h2", "(reused)", "Engine: h2-own\n");
        squid.awaitRequests(2 + 1 + 2);
        assertThat(squid.requestsPerConnection(0)).endsWith(List.of("CONNECT 407 -", "CONNECT 200 credentials"));
    }

    /** HttpClient4's sample, curl's answer and the sampler's samples (one user), each client once through the proxy. */
    private record Clients(HTTPSampleResult theirs, String curl, List<HTTPSampleResult> ours) {
    }

    /**
     * HttpClient4, curl and {@code samples} of the sampler's, one after the other, to {@code /echo} through
     * the proxy; every sample successful and none with {@code Proxy-Authorization} at the origin. The
     * sampler's user ends after (a proxy logs a tunnel when it closes).
     */
    private Clients throughTheProxy(int proxyPort, boolean tls, ProtocolMode mode, int samples) throws Exception {
        HTTPSampleResult theirs = sample(hc4(tls), proxyPort, PASSWORD);
        String curl = curl(tls, proxyPort, PASSWORD);
        Http2Sampler sampler = h2bench(tls, mode);
        List<HTTPSampleResult> ours = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            ours.add(sample(sampler, proxyPort, PASSWORD));
        }
        sampler.threadFinished();
        for (HTTPSampleResult result : concat(theirs, ours)) {
            assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
            assertThat(header(result, "Proxy-Authorization")).as(result.getResponseDataAsString()).isNull();
        }
        return new Clients(theirs, curl, ours);
    }

    private static List<HTTPSampleResult> concat(HTTPSampleResult first, List<HTTPSampleResult> rest) {
        List<HTTPSampleResult> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    private HTTPSamplerBase hc4(boolean tls) {
        return aimed(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4), tls);
    }

    private Http2Sampler h2bench(boolean tls, ProtocolMode mode) {
        Http2Sampler sampler = aimed(new Http2Sampler(), tls);
        sampler.setHttpVersion(mode);
        return sampler;
    }

    private <S extends HTTPSamplerBase> S aimed(S sampler, boolean tls) {
        sampler.setName(sampler.getClass().getSimpleName());
        sampler.setMethod("GET");
        sampler.setProtocol(tls ? "https" : "http");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(origin.port(tls));
        sampler.setPath("/echo");
        samplers.add(sampler);
        return sampler;
    }

    private static HTTPSampleResult sample(HTTPSamplerBase sampler, int proxyPort, String password) {
        sampler.setProperty(HTTPSamplerBase.PROXYHOST, "127.0.0.1");
        sampler.setProperty(HTTPSamplerBase.PROXYPORT, proxyPort);
        sampler.setProperty(HTTPSamplerBase.PROXYUSER, USER);
        sampler.setProperty(HTTPSamplerBase.PROXYPASS, password);
        return (HTTPSampleResult) sampler.sample();
    }

    /** curl's {@code --http2} through the proxy: status, HTTP version, and whether the origin saw Proxy-Authorization. */
    private String curl(boolean tls, int proxyPort, String password) throws Exception {
        Process curl = new ProcessBuilder("curl", "-sk", "--http2", "-x", "http://127.0.0.1:" + proxyPort, "-U", USER + ":" + password,
                "-w", "\n%{http_code} %{http_version}", origin.origin(tls) + "/echo").redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(curl.waitFor(30, TimeUnit.SECONDS)).as("curl finished").isTrue();
        boolean leaked = out.toLowerCase().contains("\nproxy-authorization: ");
        return out.substring(out.lastIndexOf('\n') + 1) + (leaked ? " Proxy-Authorization at the origin" : " no Proxy-Authorization");
    }
}
