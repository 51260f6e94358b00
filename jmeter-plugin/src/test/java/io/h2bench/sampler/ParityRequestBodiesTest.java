package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.jmeter.protocol.http.util.HTTPArgument;
import org.apache.jmeter.protocol.http.util.HTTPFileArg;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Request bodies of issue 12: what the peer received from h2bench is what it received from HttpClient4. */
class ParityRequestBodiesTest extends ParityTestBase {

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldEncodeFormValuesAsHttpClient4WhenUrlEncodeIsUnchecked(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/echo", sampler -> {
            sampler.setMethod("POST");
            sampler.addNonEncodedArgument("p2", "a b&c=d", "=");
            sampler.addNonEncodedArgument("p3", "café", "=");
        });

        assertThat(body(results.h2bench())).isEqualTo("p2=a+b%26c%3Dd&p3=caf%C3%A9").isEqualTo(body(results.httpClient4()));
        // Case-insensitive: Jetty's HTTP/1.1 parser hands well-known header values back from its cache.
        assertThat(header(results.h2bench(), "Content-Type")).isEqualToIgnoringCase(header(results.httpClient4(), "Content-Type"));
        assertThat(results.h2bench().getQueryString()).isEqualTo(results.httpClient4().getQueryString());
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldSendBodyDataAsTextPlainWhenAGetCarriesIt(ProtocolMode mode) {
        SamplerPair.Results results = pair.sample(mode, "/echo", sampler -> {
            sampler.addNonEncodedArgument("", "{\"raw\": \"body on a GET\"}", "");
            sampler.setPostBodyRaw(true);
        });

        assertThat(body(results.h2bench())).isEqualTo("{\"raw\": \"body on a GET\"}").isEqualTo(body(results.httpClient4()));
        assertThat(header(results.h2bench(), "Content-Type")).isEqualToIgnoringCase("text/plain; charset=UTF-8")
                .isEqualToIgnoringCase(header(results.httpClient4(), "Content-Type"));
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldWriteMultipartLikeHttpClient4WhenHeadersAreBrowserCompatible(ProtocolMode mode, @TempDir Path dir) throws Exception {
        assertSameMultipart(mode, dir, true);
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "HTTP_2", "H2C"})
    void shouldWriteMultipartLikeHttpClient4WhenHeadersAreRfc6532(ProtocolMode mode, @TempDir Path dir) throws Exception {
        assertSameMultipart(mode, dir, false);
    }

    private void assertSameMultipart(ProtocolMode mode, Path dir, boolean browserCompatible) throws Exception {
        Path file = Files.writeString(dir.resolve("upload.txt"), "h2bench upload body");
        SamplerPair.Results results = pair.sample(mode, "/echo", sampler -> {
            sampler.setMethod("POST");
            sampler.setDoMultipart(true);
            sampler.setDoBrowserCompatibleMultipart(browserCompatible);
            sampler.getArguments().addArgument(new HTTPArgument("field", "valé", "=", false));
            sampler.setHTTPFiles(new HTTPFileArg[] {new HTTPFileArg(file.toString(), "attachment", "text/plain")});
        });

        assertThat(withoutBoundary(results.h2bench(), body(results.h2bench())))
                .contains("filename=\"upload.txt\"")
                .isEqualTo(withoutBoundary(results.httpClient4(), body(results.httpClient4())));
        assertThat(withoutBoundary(results.h2bench(), header(results.h2bench(), "Content-Type")))
                .isEqualTo(withoutBoundary(results.httpClient4(), header(results.httpClient4(), "Content-Type")));
    }

    /** The peer's echo: request line, headers, blank line, body. */
    static String body(org.apache.jmeter.protocol.http.sampler.HTTPSampleResult result) {
        String echo = new String(result.getResponseData(), StandardCharsets.UTF_8);
        assertThat(echo).as(result.getResponseMessage()).contains("\n\n");
        return echo.substring(echo.indexOf("\n\n") + 2);
    }

    /** A header the peer received, as it echoed it (null when absent). */
    static String header(org.apache.jmeter.protocol.http.sampler.HTTPSampleResult result, String name) {
        String echo = new String(result.getResponseData(), StandardCharsets.UTF_8);
        for (String line : echo.substring(0, echo.indexOf("\n\n")).split("\n")) {
            if (line.toLowerCase().startsWith(name.toLowerCase() + ": ")) {
                return line.substring(name.length() + 2);
            }
        }
        return null;
    }

    private static String withoutBoundary(org.apache.jmeter.protocol.http.sampler.HTTPSampleResult result, String text) {
        String type = header(result, "Content-Type");
        String boundary = type.replaceAll(".*boundary=([^;]+).*", "$1");
        return text.replace(boundary, "BOUNDARY");
    }
}
