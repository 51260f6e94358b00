package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.util.HTTPFileArg;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every method JMeter's HTTP Request offers goes out as such, with its body, over HTTP/2. */
class SamplerMethodsTest {

    private SamplerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("method");
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
    void shouldSendTheMethodAndGetAnHttpAnswerWhenSampling(String method) {
        Http2Sampler sampler = fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_2);
        sampler.setMethod(method);
        sampler.addNonEncodedArgument("", "payload-" + method, "");
        sampler.setPostBodyRaw(true);

        HTTPSampleResult result = (HTTPSampleResult) sampler.sample();

        assertThat(result.getHTTPMethod()).isEqualTo(method);
        assertThat(result.getResponseCode()).as(result.getResponseMessage()).matches("\\d{3}");
        assertThat(result.getResponseHeaders()).startsWith("HTTP/2.0 ");
        if (RequestBodies.carriesBody(sampler, method, false)) {
            assertThat(result.getQueryString()).isEqualTo("payload-" + method);
        }
        if (method.equals("HEAD")) {
            assertThat(result.getBodySizeAsLong()).isZero();
        }
    }

    @Test
    void shouldSendAMultipartFormWhenAFileIsUploaded(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("upload.txt"), "h2bench upload body");
        Http2Sampler sampler = fixture.target(Listener.H2, "/articles", ProtocolMode.HTTP_2);
        sampler.setMethod("POST");
        sampler.setDoMultipart(true);
        sampler.addArgument("field", "value");
        sampler.setHTTPFiles(new HTTPFileArg[] {new HTTPFileArg(file.toString(), "attachment", "text/plain")});

        HTTPSampleResult result = (HTTPSampleResult) sampler.sample();

        assertThat(result.getRequestHeaders()).contains("Content-Type: multipart/form-data; boundary=");
        assertThat(result.getQueryString()).contains("name=\"field\"").contains("filename=\"upload.txt\"");
        assertThat(result.getSentBytes()).isGreaterThan(Files.size(file));
        assertThat(result.getResponseCode()).matches("\\d{3}");
    }

    @Test
    void shouldReportAMissingFileWithoutSendingWhenTheUploadCannotBeRead() {
        Http2Sampler sampler = fixture.target(Listener.H2, "/articles", ProtocolMode.HTTP_2);
        sampler.setMethod("POST");
        sampler.setHTTPFiles(new HTTPFileArg[] {new HTTPFileArg("/no/such/file.bin", "", "application/octet-stream")});

        HTTPSampleResult result = (HTTPSampleResult) sampler.sample();

        assertThat(result.isSuccessful()).isFalse();
        assertThat(result.getResponseCode()).startsWith("Non HTTP response code: java.nio.file.NoSuchFileException");
        assertThat(fixture.server.connectionsAccepted(Listener.H2)).isZero();
    }
}
