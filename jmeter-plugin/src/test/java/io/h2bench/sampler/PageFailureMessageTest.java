package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A page whose resources failed says why in its own line, as JMeter's HTTP sampler does. */
class PageFailureMessageTest {

    @BeforeAll
    static void jmeter() {
        InProcessJMeter.init();
    }

    private static HTTPSampleResult part(String url, boolean success, String code, String message) throws Exception {
        HTTPSampleResult part = new HTTPSampleResult();
        part.setURL(new URL(url));
        part.setSuccessful(success);
        part.setResponseCode(code);
        part.setResponseMessage(message);
        return part;
    }

    @Test
    void shouldNameEveryFailedResourceWhenAPageLoadFails() throws Exception {
        HTTPSampleResult page = part("http://127.0.0.1:1/page", true, "200", "OK");
        page.addRawSubResult(part("http://127.0.0.1:1/page", true, "200", "OK"));
        page.addRawSubResult(part("http://127.0.0.1:1/a.png", false, "Non HTTP response code: X", "Non HTTP response message: reset"));
        page.addRawSubResult(part("http://127.0.0.1:1/b.png", true, "200", "OK"));

        PageResources.recomputeTotals(page, false);

        assertThat(page.isSuccessful()).isFalse();
        assertThat(page.getResponseMessage()).isEqualTo("Embedded resource download error:http://127.0.0.1:1/a.png"
                + " code:Non HTTP response code: X message:Non HTTP response message: reset, ");
    }

    @Test
    void shouldKeepThePageMessageWhenFailedResourcesAreIgnored() throws Exception {
        HTTPSampleResult page = part("http://127.0.0.1:1/page", true, "200", "OK");
        page.addRawSubResult(part("http://127.0.0.1:1/a.png", false, "404", "Not Found"));

        PageResources.recomputeTotals(page, true);

        assertThat(page.isSuccessful()).isTrue();
        assertThat(page.getResponseMessage()).isEqualTo("OK");
    }
}
