package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Http2SamplerTest {

    private SamplerFixture fixture;
    private H2BenchServer server;
    private Http2Sampler sampler;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("sample");
        server = fixture.server;
        sampler = fixture.sampler;
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private void target(Listener listener, String path, ProtocolMode mode) {
        fixture.target(listener, path, mode);
    }

    @ParameterizedTest
    @CsvSource({
        "H1,HTTP_1_1,HTTP/1.1 200 OK,none",
        "H1_TLS,HTTP_1_1,HTTP/1.1 200 OK,none",
        "H2,HTTP_2,HTTP/2.0 200 OK,h2",
        "H2C,H2C,HTTP/2.0 200 OK,none",
        "H2C,H2C_UPGRADE,HTTP/2.0 200 OK,none"})
    void shouldShowTheProtocolUsedWhenSampling(Listener listener, ProtocolMode mode, String statusLine, String alpn) {
        target(listener, "/small-text.txt", mode);

        HTTPSampleResult first = (HTTPSampleResult) sampler.sample();
        HTTPSampleResult second = (HTTPSampleResult) sampler.sample();

        assertThat(first.isSuccessful()).as(first.getResponseMessage()).isTrue();
        assertThat(first.getResponseCode()).isEqualTo("200");
        assertThat(first.getResponseHeaders()).startsWith(statusLine + "\n");
        assertThat(first.getSamplerData()).contains("ALPN: " + alpn).contains("(new)");
        assertThat(second.getSamplerData()).contains("(reused)");
        assertThat(first.getConnectTime()).isPositive();
        assertThat(second.getConnectTime()).isZero();
        for (SampleResult result : new SampleResult[] {first, second}) {
            assertThat(result.getLatency()).isLessThanOrEqualTo(result.getTime());
            assertThat(result.getSentBytes()).isPositive();
            assertThat(result.getBytesAsLong()).isGreaterThanOrEqualTo(result.getBodySizeAsLong());
            assertThat(result.getBodySizeAsLong()).isEqualTo(result.getResponseData().length).isGreaterThan(40_000);
            assertThat(result.getHeadersSize() + result.getBodySizeAsLong()).isEqualTo(result.getBytesAsLong());
        }
    }

    @Test
    void shouldReportAnErrorAtTheResponseTimeoutWhenTheServerIsSlow() {
        target(Listener.H2, "/option?size=1k&delay=5000", ProtocolMode.HTTP_2);
        sampler.setResponseTimeout("500");

        SampleResult result = sampler.sample();

        assertThat(result.isSuccessful()).isFalse();
        assertThat(result.getResponseMessage()).contains("within 500 ms (response timeout");
        assertThat(result.getTime()).isBetween(450L, 2_500L);
    }

    @Test
    void shouldFailTheSampleWithTheValidVersionsWhenTheHttpVersionIsUnknown() {
        target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_2);
        sampler.setProperty("H2Bench.httpVersion", "HTTP2");

        SampleResult result = sampler.sample();

        assertThat(result.isSuccessful()).isFalse();
        assertThat(result.getResponseMessage())
                .contains("HTTP version must be one of HTTP_1_1, HTTP_2, H2C, H2C_UPGRADE, HTTP_3, HTTP_3_ALT_SVC; was 'HTTP2'");
    }

    @Test
    void shouldSayItUsedHttp11WhenTheSchemeChoseHttp2AndAlpnPickedHttp11() {
        // No version set: https means HTTP/2 with HTTP/1.1 allowed, and this listener's ALPN has no h2.
        target(Listener.H1_TLS, "/small-text.txt", null);

        HTTPSampleResult result = (HTTPSampleResult) sampler.sample();

        assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        assertThat(result.getResponseHeaders()).startsWith("HTTP/1.1 200");
        assertThat(result.getResponseMessage()).isEqualTo("OK (HTTP/2 by the https scheme, the server's ALPN chose http/1.1: HTTP/1.1 was used)");
    }

    @Test
    void shouldReportRefusedConnectionsAsErrorsWhenNothingListens() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        target(Listener.H1, "/", ProtocolMode.HTTP_1_1);
        sampler.setPort(port);

        SampleResult result = sampler.sample();

        assertThat(result.isSuccessful()).isFalse();
        assertThat(result.getResponseCode()).startsWith("Non HTTP response code: java.net.ConnectException");
        assertThat(result.getResponseMessage()).contains("refused");
    }

    @Test
    void shouldReportPushesAsSubResultsWhenThePageIsPushed() {
        target(Listener.H2, "/push", ProtocolMode.HTTP_2);

        SampleResult result = sampler.sample();

        assertThat(result.isSuccessful()).isTrue();
        assertThat(result.getSubResults()).hasSize(16);
        assertThat(result.getSubResults()).allSatisfy(push -> {
            assertThat(push.getSampleLabel()).startsWith("https://127.0.0.1:");
            assertThat(push.getSamplerData()).contains("Pushed by the server");
            assertThat(push.isSuccessful()).isTrue();
        });
    }

    @Test
    void shouldSendBodyAndFormWhenPosting() {
        target(Listener.H2, "/articles", ProtocolMode.HTTP_2);
        sampler.setMethod("POST");
        sampler.addNonEncodedArgument("", "{\"hello\":\"h2\"}", "");
        sampler.setPostBodyRaw(true);

        HTTPSampleResult result = (HTTPSampleResult) sampler.sample();

        assertThat(result.getResponseCode()).doesNotStartWith("Non HTTP");
        assertThat(result.getQueryString()).isEqualTo("{\"hello\":\"h2\"}");
        assertThat(result.getSentBytes()).isGreaterThan(14);
    }

    @Test
    void shouldStopTheSharedClientWhenTheTestEnds() {
        target(Listener.H1, "/style.css", ProtocolMode.HTTP_1_1);
        sampler.sample();
        assertThat(SharedClient.running()).isTrue();

        sampler.threadFinished();
        sampler.testEnded();

        assertThat(SharedClient.running()).isFalse();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(thread -> thread.isAlive()
                && !thread.isDaemon() && thread.getName().startsWith("h2bench-client"));
    }

    @Test
    void shouldKeepTheResponseBodyWhenTheStatusIsAnError() {
        target(Listener.H1, "/no-such-object", ProtocolMode.HTTP_1_1);

        SampleResult result = sampler.sample();

        assertThat(result.getResponseCode()).isEqualTo("404");
        assertThat(result.isSuccessful()).isFalse();
        assertThat(new String(result.getResponseData(), StandardCharsets.UTF_8)).isNotNull();
    }

    @Test
    void shouldSampleAgainWhenANewRunStartsOnTheSameThread() {
        target(Listener.H2C, "/style.css", ProtocolMode.H2C);
        sampler.sample();
        sampler.testEnded();

        SampleResult again = sampler.sample();

        assertThat(again.isSuccessful()).as(again.getResponseMessage()).isTrue();
        assertThat(again.getConnectTime()).isPositive();
    }

    @Test
    void shouldStampTheSampleWithTheTimeTheRequestStartedWhenSampling() {
        target(Listener.H2, "/option?size=1k&delay=300", ProtocolMode.HTTP_2);
        long before = System.currentTimeMillis();

        SampleResult result = sampler.sample();
        long after = System.currentTimeMillis();

        assertThat(result.getStartTime()).isBetween(before, before + 200);
        assertThat(result.getEndTime()).isEqualTo(result.getStartTime() + result.getTime());
        assertThat(result.getEndTime()).isLessThanOrEqualTo(after + 1);
        assertThat(result.getTime()).isGreaterThanOrEqualTo(300);
    }
}
