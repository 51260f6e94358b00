package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code httpsampler.max_bytes_to_store_per_request}: the decoded body is cut where HttpClient4 cuts it. */
class ParityStoredBytesTest {

    @Test
    void shouldStoreAsManyBytesAsHttpClient4WhenTheStoreLimitIsSet() throws Exception {
        String output = runProbe("1000");

        assertThat(output).contains("HTTP_1_1 hc4=1000 h2bench=1000")
                .contains("HTTP_2 hc4=1000 h2bench=1000")
                .contains("H2C hc4=1000 h2bench=1000");
    }

    /** {@link StoredBytesProbe} in a fresh JVM on this test's class path; its standard output. */
    private static String runProbe(String limit) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process probe = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                StoredBytesProbe.class.getName(), limit)
                .redirectErrorStream(true)
                .start();
        try {
            String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(probe.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(probe.exitValue()).as(output).isZero();
            return output;
        } finally {
            probe.destroyForcibly();
        }
    }
}
