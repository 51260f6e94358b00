package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code httpclient.socket.http(s).cps} beside HttpClient4, in a JVM of their own
 * ({@link BandwidthProbe}): a 104 kB body takes about bytes / cps on both, on a new connection
 * over http (HTTP/1.1) and https (h2bench h2, HttpClient4 HTTP/1.1).
 */
class ParityBandwidthTest {

    private static final int CPS = 40_000;
    private static final Pattern LINE = Pattern.compile("(\\w+) hc4=(\\d+)/(\\d+) h2bench=(\\d+)/(\\d+)");

    @Test
    void shouldTakeAsLongAsTheLimitAllowsLikeHttpClient4WhenCpsIsSet() throws Exception {
        String output = ProbeJvm.run(BandwidthProbe.class, String.valueOf(CPS));

        Matcher line = LINE.matcher(output);
        int modes = 0;
        while (line.find()) {
            modes++;
            assertWithinModel(line.group(1) + " HttpClient4", Long.parseLong(line.group(2)), Long.parseLong(line.group(3)));
            assertWithinModel(line.group(1) + " h2bench", Long.parseLong(line.group(4)), Long.parseLong(line.group(5)));
        }
        assertThat(modes).as(output).isEqualTo(2);
    }

    /** Wide band around bytes / cps: the machine is shared, and TLS handshakes add reads of their own. */
    private static void assertWithinModel(String who, long elapsedMillis, long bytes) {
        long modelMillis = 1_000 * bytes / CPS;
        assertThat(bytes).as(who + " bytes").isGreaterThan(100_000);
        assertThat(elapsedMillis).as(who + " elapsed ms, model " + modelMillis).isBetween(modelMillis * 8 / 10, modelMillis * 3 / 2 + 2_000);
    }
}
