package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sampler's proxy fields, beside JMeter's HttpClient4 sampler, through a real squid: plain
 * HTTP as absolute-form requests, HTTPS (HTTP/1.1 and h2) through CONNECT, Basic proxy
 * authentication answered on the 407 challenge, a proxy reached over TLS, and the h2c Upgrade through
 * a proxy beside curl's, all on the sampler's own engines. Squid's logs show
 * what went through it: the proxy sees what HttpClient4 shows it in the same run, its credentials
 * only once it asked for them and then on every request or CONNECT, and a refused tunnel is the
 * sample's response as HttpClient4 reports it.
 */
class ProxyParityTest {

    private SamplerFixture fixture;
    private SquidProxy squid;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("h2bench");
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
        if (squid != null) {
            squid.close();
        }
    }

    @Test
    void shouldGoThroughTheProxyWhenTheSamplerNamesOneOverHttp() throws Exception {
        squid = SquidProxy.start(null, null);

        HTTPSampleResult theirs = sample(hc4(Listener.H1), null);
        HTTPSampleResult ours = sample(h2bench(Listener.H1, ProtocolMode.HTTP_1_1), null);

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(ours.isSuccessful()).as(ours.getResponseMessage()).isTrue();
        assertThat(squid.awaitLines(" GET http://127.0.0.1:", 2)).isEqualTo(2);
    }

    @Test
    void shouldTunnelThroughConnectWhenTheTargetIsHttps() throws Exception {
        squid = SquidProxy.start(null, null);

        HTTPSamplerBase hc4 = hc4(Listener.H1_TLS);
        HTTPSampleResult theirs = sample(hc4, null);
        HTTPSampleResult h1 = sample(h2bench(Listener.H1_TLS, ProtocolMode.HTTP_1_1), null);
        fixture.sampler.threadFinished();
        HTTPSampleResult h2 = sample(h2bench(Listener.H2, ProtocolMode.HTTP_2), null);
        fixture.sampler.threadFinished();
        hc4.threadFinished();

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(h1.isSuccessful()).as(h1.getResponseMessage()).isTrue();
        assertThat(h2.isSuccessful()).as(h2.getResponseMessage()).isTrue();
        assertThat(h2.getSamplerData()).contains("ALPN: h2");
        // squid logs a tunnel when it closes
        assertThat(squid.awaitLines(" CONNECT 127.0.0.1:", 3)).isEqualTo(3);
    }

    /**
     * h2c by prior knowledge goes through a CONNECT tunnel to the cleartext port, as curl's
     * {@code --http2-prior-knowledge --proxytunnel} does ({@code ProxyInteropTest}); a proxy that allows
     * CONNECT only to 443, as Debian's squid.conf does, refuses it, and its 403 is the sample's response,
     * as a refused https tunnel's is: no note that HTTP/1.1 was used, the origin was never reached.
     */
    @Test
    void shouldReportTheProxysRefusalWhenItAllowsNoTunnelToTheH2cPort() throws Exception {
        squid = SquidProxy.startConnectingTo443Only();

        HTTPSampleResult h2c = sample(newUser(Listener.H2C, ProtocolMode.H2C), null);
        HTTPSampleResult http2 = sample(newUser(Listener.H2C, ProtocolMode.HTTP_2), null);
        fixture.sampler.threadFinished();
        HTTPSampleResult tunnelled = sample(newUser(Listener.H2C, ProtocolMode.H2C), null);
        fixture.sampler.threadFinished();

        for (HTTPSampleResult ours : List.of(h2c, http2, tunnelled)) {
            assertThat(ours.isSuccessful()).isFalse();
            assertThat(ours.getResponseCode()).isEqualTo("403");
            assertThat(ours.getResponseMessage()).isEqualTo("Forbidden");
            assertThat(ours.getResponseDataAsString()).contains("ERR_ACCESS_DENIED");
        }
        assertThat(squid.awaitLines("TCP_DENIED/403", 3)).isEqualTo(3);
        assertThat(fixture.server.requestsReceived("/small-text.txt")).isZero();
    }

    @Test
    void shouldAnswerTheProxysChallengeWhenItAsksForCredentials() throws Exception {
        squid = SquidProxy.start("tester", "s3cret");

        HTTPSampleResult theirs = sample(hc4(Listener.H1_TLS), "s3cret");
        HTTPSampleResult ours = sample(h2bench(Listener.H1_TLS, ProtocolMode.HTTP_1_1), "s3cret");
        HTTPSampleResult plain = sample(h2bench(Listener.H1, ProtocolMode.HTTP_1_1), "s3cret");

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(ours.isSuccessful()).as(ours.getResponseMessage()).isTrue();
        assertThat(plain.isSuccessful()).as(plain.getResponseMessage()).isTrue();
        assertThat(squid.accessLog()).contains(" tester ");
    }

    @Test
    void shouldGetTheProxysRefusalWhenThePasswordIsWrong() throws Exception {
        squid = SquidProxy.start("tester", "s3cret");

        HTTPSampleResult theirs = sample(hc4(Listener.H1), "wrong");
        HTTPSampleResult ours = sample(h2bench(Listener.H1, ProtocolMode.HTTP_1_1), "wrong");

        assertThat(theirs.getResponseCode()).isEqualTo("407");
        assertThat(ours.getResponseCode()).isEqualTo(theirs.getResponseCode());
    }

    @Test
    void shouldSendOnTheOwnEnginesWhenTheRequestGoesThroughAProxy() throws Exception {
        squid = SquidProxy.start(null, null);

        Routes routes = everyRoute();

        assertThat(routes.plain().getSamplerData()).contains("Engine: h1-own");
        assertThat(routes.tunnelled().getSamplerData()).contains("Engine: h1-own");
        assertThat(routes.h2().getSamplerData()).contains("ALPN: h2", "Engine: h2-own");
        assertThat(routes.h2Again().getSamplerData()).contains("(reused)", "Engine: h2-own");
        // The https scheme offers h2 and http/1.1 in the tunnel; this server's ALPN takes http/1.1.
        assertThat(routes.byScheme().getSamplerData()).contains("ALPN: http/1.1", "Engine: h1-own");
        assertThat(squid.awaitLines(" CONNECT 127.0.0.1:", 3)).isEqualTo(3);
        assertThat(squid.accessLog()).contains(" GET http://127.0.0.1:");
    }

    /**
     * A proxy reached over TLS (squid's {@code https_port}), as HttpClient4 reaches it: the own engines
     * make the TLS handshake with the proxy, then the CONNECT inside it and the origin's TLS (with ALPN)
     * inside that, or plain http's absolute-form requests over the proxy's TLS.
     */
    @Test
    void shouldSendOnTheOwnEnginesWhenTheProxyIsReachedOverTls() throws Exception {
        squid = SquidProxy.startOverTls();

        HTTPSamplerBase hc4 = hc4(Listener.H1_TLS);
        HTTPSampleResult theirs = sample(hc4, null);
        hc4.threadFinished();
        Routes routes = everyRoute();

        assertThat(theirs.isSuccessful()).as(theirs.getResponseMessage()).isTrue();
        assertThat(routes.plain().getSamplerData()).contains("Engine: h1-own\n");
        assertThat(routes.tunnelled().getSamplerData()).contains("Engine: h1-own\n");
        // The ALPN is the origin's, chosen in the TLS inside the proxy's.
        assertThat(routes.h2().getSamplerData()).contains("Protocol: HTTP/2.0", "ALPN: h2", "Engine: h2-own\n");
        assertThat(routes.h2Again().getSamplerData()).contains("Protocol: HTTP/2.0", "(reused)", "Engine: h2-own\n");
        assertThat(routes.byScheme().getSamplerData()).contains("ALPN: http/1.1", "Engine: h1-own\n");
        // The TLS time is the origin's handshake, within a Connect that holds the proxy's and the CONNECT too.
        assertThat(TlsColumns.of(routes.h2())).isPositive().isLessThanOrEqualTo(routes.h2().getConnectTime());
        assertThat(squid.awaitLines(" CONNECT 127.0.0.1:", 4)).isEqualTo(4);
        assertThat(squid.accessLog()).contains(" GET http://127.0.0.1:");
    }

    /**
     * The h2c Upgrade through a proxy, as curl's {@code --http2} asks for it: the Upgrade request in
     * absolute form to the proxy. Squid, as RFC 9110 7.6.1 has a proxy do, drops the hop-by-hop
     * {@code Upgrade} and {@code HTTP2-Settings}: the origin answers over HTTP/1.1, to curl as to the
     * sampler, whose sample says the upgrade was declined.
     */
    @Test
    void shouldAskForTheH2cUpgradeAsCurlDoesWhenTheRequestGoesThroughAProxy() throws Exception {
        squid = SquidProxy.start(null, null);

        SampleResult upgrade = sample(newUser(Listener.H2C, ProtocolMode.H2C_UPGRADE), null);
        SampleResult next = fixture.sampler.sample();
        fixture.sampler.threadFinished();
        String curl = curlUpgradeThroughSquid(fixture.server.port(Listener.H2C));

        for (SampleResult result : List.of(upgrade, next)) {
            assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
            assertThat(result.getSamplerData()).contains("Protocol: HTTP/1.1", "Engine: h1-own\n");
            assertThat(result.getResponseMessage()).contains("h2c Upgrade declined by the server");
        }
        assertThat(curl).isEqualTo("200 1.1");
        assertThat(squid.awaitLines(" GET http://127.0.0.1:", 3)).isEqualTo(3);
        assertThat(squid.upgradesAsked()).containsExactly("GET h2c", "GET h2c", "GET h2c");
    }

    private String curlUpgradeThroughSquid(int port) throws Exception {
        Process curl = new ProcessBuilder("curl", "-s", "-o", "/dev/null", "--http2", "-x", "http://127.0.0.1:" + squid.port(),
                "-w", "%{http_code} %{http_version}", "http://127.0.0.1:" + port + "/small-text.txt")
                .redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertThat(curl.waitFor(30, TimeUnit.SECONDS)).as("curl finished").isTrue();
        return out;
    }

    @Test
    void shouldReportTheProxysRefusalAsHttpClient4DoesWhenItRefusesTheTunnel() throws Exception {
        squid = SquidProxy.start("tester", "s3cret");

        HTTPSamplerBase hc4 = hc4(Listener.H1_TLS);
        HTTPSampleResult theirs = sample(hc4, "wrong");
        hc4.threadFinished();
        HTTPSampleResult h1 = sample(newUser(Listener.H1_TLS, ProtocolMode.HTTP_1_1), "wrong");
        HTTPSampleResult h2 = sample(newUser(Listener.H2, ProtocolMode.HTTP_2), "wrong");

        assertThat(theirs.getResponseCode()).isEqualTo("407");
        for (HTTPSampleResult ours : List.of(h1, h2)) {
            assertThat(ours.isSuccessful()).isFalse();
            assertThat(ours.getResponseCode()).isEqualTo(theirs.getResponseCode());
            assertThat(ours.getResponseMessage()).isEqualTo(theirs.getResponseMessage());
            assertThat(ours.getResponseHeaders()).contains("Proxy-Authenticate: Basic realm=\"h2bench\"");
            assertThat(ours.getResponseDataAsString()).contains("ERR_CACHE_ACCESS_DENIED");
        }
    }

    @Test
    void shouldSendTheProxyCredentialsWhenHttpClient4SendsThemOnTheSameConnections() throws Exception {
        squid = SquidProxy.start("tester", "s3cret");

        HTTPSamplerBase plainHc4 = hc4(Listener.H1);
        plainHc4.setUseKeepAlive(true);
        HTTPSamplerBase tunnelHc4 = hc4(Listener.H1_TLS);
        tunnelHc4.setUseKeepAlive(false); // each sample on a new tunnel
        threeSamples(plainHc4, tunnelHc4);
        squid.awaitRequests(4 + 4);
        List<List<String>> theirs = squid.requestsPerConnection(0);
        // A squid of our own: HttpClient4's last tunnel may be logged late (at its close), among ours.
        squid.close();
        squid = SquidProxy.start("tester", "s3cret");

        Http2Sampler plain = newUser(Listener.H1, ProtocolMode.HTTP_1_1);
        Http2Sampler tunnel = new Http2Sampler();
        tunnel.setName("tunnel");
        tunnel.setMethod("GET");
        tunnel.setProtocol("https");
        tunnel.setDomain("127.0.0.1");
        tunnel.setPort(fixture.server.port(Listener.H1_TLS));
        tunnel.setPath("/small-text.txt");
        tunnel.setHttpVersion(ProtocolMode.HTTP_1_1);
        tunnel.setHeaderManager(closing());
        threeSamples(plain, tunnel);
        squid.awaitRequests(4 + 4);
        List<List<String>> ours = squid.requestsPerConnection(0);

        // One plain connection: 407 without them, the same GET with them, then with them at once; the
        // first tunnel: a CONNECT without, then with them on the same connection; every later tunnel
        // with them at once (how many later tunnels HttpClient4 opens for three samples is its own).
        List<List<String>> expected = List.of(
                List.of("GET 407 -", "GET 200 credentials", "GET 200 credentials", "GET 200 credentials"),
                List.of("CONNECT 407 -", "CONNECT 200 credentials"),
                List.of("CONNECT 200 credentials"));
        assertThat(theirs).hasSizeGreaterThanOrEqualTo(4);
        assertThat(ours).hasSize(4);
        assertThat(new ArrayList<>(new LinkedHashSet<>(theirs))).isEqualTo(expected);
        assertThat(new ArrayList<>(new LinkedHashSet<>(ours))).isEqualTo(expected);
    }

    @Test
    void shouldBeAskedForCredentialsOnceWhenAlpnChoosesHttp11InTheTunnelsOfAPage() throws Exception {
        squid = SquidProxy.start("tester", "s3cret");
        Http2Sampler page = newUser(Listener.H1_TLS, null);
        page.setPath("/");
        page.setImageParser(true);

        HTTPSampleResult result = sample(page, "s3cret");
        fixture.sampler.threadFinished(); // squid logs a tunnel when it closes
        int tunnels = (int) squid.awaitLines("TCP_TUNNEL/200", 2);
        List<List<String>> connections = squid.requestsPerConnection(0);

        // The page's tunnel (the own HTTP/2's, handed to HTTP/1.1 by ALPN) was asked; the resources'
        // further tunnels, opened by the own HTTP/1.1, carry the credentials at once: one route, as HttpClient4's.
        assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        assertThat(tunnels).isGreaterThanOrEqualTo(2);
        assertThat(connections.get(0)).containsExactly("CONNECT 407 -", "CONNECT 200 credentials");
        assertThat(connections.subList(1, connections.size())).allSatisfy(
                tunnel -> assertThat(tunnel).containsExactly("CONNECT 200 credentials"));
    }

    private void threeSamples(HTTPSamplerBase plain, HTTPSamplerBase tunnel) {
        for (HTTPSamplerBase sampler : List.of(plain, tunnel)) {
            for (int i = 0; i < 3; i++) {
                HTTPSampleResult result = sample(sampler, "s3cret");
                assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
            }
            sampler.threadFinished();
        }
    }

    private static HeaderManager closing() {
        HeaderManager headers = new HeaderManager();
        headers.add(new Header("Connection", "close"));
        return headers;
    }

    private HTTPSamplerBase hc4(Listener listener) {
        HTTPSamplerBase sampler = HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4);
        sampler.setMethod("GET");
        sampler.setProtocol(listener.secure() ? "https" : "http");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(fixture.server.port(listener));
        sampler.setPath("/small-text.txt");
        return sampler;
    }

    private HTTPSamplerBase h2bench(Listener listener, ProtocolMode mode) {
        return fixture.target(listener, "/small-text.txt", mode);
    }

    /** Aimed as {@link #h2bench}, for a new user: new connections, and a proxy that has asked nothing yet. */
    /** One sample through the proxy by each route: see {@link #everyRoute}. */
    private record Routes(SampleResult plain, SampleResult tunnelled, SampleResult h2, SampleResult h2Again,
                          SampleResult byScheme) {
    }

    /**
     * One request through the proxy by every route, each asserted successful: plain http (absolute
     * form), https over HTTP/1.1 (a CONNECT tunnel), h2 (a tunnel, ALPN h2) and its reused connection,
     * and https by scheme (ALPN offering both); the user's connections closed after, as squid logs a
     * tunnel when it closes.
     */
    private Routes everyRoute() {
        Routes routes = new Routes(sample(newUser(Listener.H1, ProtocolMode.HTTP_1_1), null),
                sample(newUser(Listener.H1_TLS, ProtocolMode.HTTP_1_1), null),
                sample(newUser(Listener.H2, ProtocolMode.HTTP_2), null),
                fixture.sampler.sample(),
                sample(newUser(Listener.H1_TLS, null), null));
        fixture.sampler.threadFinished();
        for (SampleResult result : List.of(routes.plain(), routes.tunnelled(), routes.h2(), routes.h2Again(),
                routes.byScheme())) {
            assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        }
        return routes;
    }

    private Http2Sampler newUser(Listener listener, ProtocolMode mode) {
        Http2Sampler sampler = fixture.target(listener, "/small-text.txt", mode);
        fixture.sampler.threadFinished();
        return sampler;
    }

    private HTTPSampleResult sample(HTTPSamplerBase sampler, String password) {
        sampler.setProperty(HTTPSamplerBase.PROXYSCHEME, squid.scheme());
        sampler.setProperty(HTTPSamplerBase.PROXYHOST, "127.0.0.1");
        sampler.setProperty(HTTPSamplerBase.PROXYPORT, squid.port());
        if (password != null) {
            sampler.setProperty(HTTPSamplerBase.PROXYUSER, "tester");
            sampler.setProperty(HTTPSamplerBase.PROXYPASS, password);
        }
        return (HTTPSampleResult) sampler.sample();
    }
}
