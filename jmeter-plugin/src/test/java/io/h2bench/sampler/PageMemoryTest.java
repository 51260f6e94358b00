package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A page's embedded bodies are held once, as HttpClient4 holds them: 60 resources of 1,900 KiB
 * (117 MB) in a 256 MiB heap. Holding each body twice at the end of the page (the exchange's copy and
 * the stored one) ran out of heap here, as the 3,750 x 0.1 MB page of seed 003 did in JMeter's 1 GiB.
 * Just under 2 MiB, so that a body takes two of G1's 1 MiB regions there and not three.
 */
class PageMemoryTest {

    @Test
    void shouldLoadAPageOfLargeResourcesWhenTheHeapHoldsItsBodiesOnce() throws Exception {
        String output = ProbeJvm.run(List.of("-Xmx256m"), PageMemoryProbe.class, "/resources?count=60&size=1900k&delay=0");

        long bodies = 60L * 1900 * 1024;
        assertThat(output).contains("hc4 ok=true").contains("h2bench-HTTP_1_1 ok=true").contains("h2bench-HTTP_2 ok=true");
        assertThat(output).containsPattern("h2bench-HTTP_2 ok=true bytes=" + (bodies / 1_000_000) + "\\d{6} ");
    }
}
