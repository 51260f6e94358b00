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
        part.setStampAndTime(1_000, 10); // a sampled part has its times; recomputing the page's reads them
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
    void shouldNameTheFirstThreeAndCountTheRestWhenManyResourcesFail() throws Exception {
        HTTPSampleResult page = part("http://127.0.0.1:1/articles?count=500", true, "200", "OK");
        page.addRawSubResult(part("http://127.0.0.1:1/articles?count=500", true, "200", "OK"));
        for (int item = 1; item <= 500; item++) {
            page.addRawSubResult(part("http://127.0.0.1:1/articles/" + item, item < 33, item < 33 ? "200" : "Non HTTP response code: X",
                    item < 33 ? "OK" : "Non HTTP response message: The server sent GOAWAY"));
        }

        PageResources.recomputeTotals(page, false);

        assertThat(page.isSuccessful()).isFalse();
        assertThat(page.getResponseMessage())
                .startsWith("Embedded resource download error:http://127.0.0.1:1/articles/33 code:Non HTTP response code: X"
                        + " message:Non HTTP response message: The server sent GOAWAY, ")
                .contains("/articles/35 ").doesNotContain("/articles/36 ")
                .endsWith("and 465 more (468 of 501 parts failed)");
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
