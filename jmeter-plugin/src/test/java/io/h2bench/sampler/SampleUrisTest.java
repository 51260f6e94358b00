package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import org.junit.jupiter.api.Test;

class SampleUrisTest {

    private final SampleUris uris = new SampleUris();

    @Test
    void shouldParseOnceWhenJMeterBuildsTheSameUrlAgain() throws Exception {
        URI first = uris.of(new URL("https://h2bench.test:8443/option?size=100"));

        assertThat(uris.of(new URL("https://h2bench.test:8443/option?size=100"))).isSameAs(first);
    }

    @Test
    void shouldParseAgainWhenAnyPartOfTheUrlDiffers() throws Exception {
        String[] urls = {
            "https://h2bench.test:8443/option?size=100",
            "http://h2bench.test:8443/option?size=100",
            "https://h2bench.test:8444/option?size=100",
            "https://other.test:8443/option?size=100",
            "https://user@h2bench.test:8443/option?size=100",
            "https://h2bench.test:8443/option?size=101",
            "https://h2bench.test:8443/options?size=100",
            "https://h2bench.test:8443/option?size=100#part",
            "https://h2bench.test:8443/option?size=100",
        };
        for (String url : urls) {
            assertThat(uris.of(new URL(url))).isEqualTo(URI.create(url));
        }
    }
}
