package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code httpsampler.max_bytes_to_store_per_request}: the decoded body is cut where HttpClient4 cuts it. */
class ParityStoredBytesTest {

    @Test
    void shouldStoreAsManyBytesAsHttpClient4WhenTheStoreLimitIsSet() throws Exception {
        String output = ProbeJvm.run(StoredBytesProbe.class, "1000");

        assertThat(output).contains("HTTP_1_1 hc4=1000 h2bench=1000")
                .contains("HTTP_2 hc4=1000 h2bench=1000")
                .contains("H2C hc4=1000 h2bench=1000");
    }
}
