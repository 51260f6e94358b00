package io.h2bench.server;

import static io.h2bench.server.BenchmarkScripts.ROOT;
import static io.h2bench.server.BenchmarkScripts.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * benchmarks/h3-peers-table.py on a run of h3-peers.sh --server-jar-b: the second h2bench build
 * (h2bench-b) gets a table of its own ratios to each peer and its own band verdict, so that an A/B of
 * two listener builds reads off one run. Made-up downloads: h2bench 1,000 ms, h2bench-b 1,100,
 * gtlsserver 1,000.
 */
class H3PeersTableScriptTest {

    @TempDir
    Path run;

    @Test
    void shouldRateTheSecondBuildAgainstEachPeerWhenARunServesTwoH2benchBuilds() throws Exception {
        assumeTrue(runs("python3", "--version"), "python3 is needed");
        StringBuilder results = new StringBuilder("round,server,size,ms,client_drops,error\n");
        for (int round = 1; round <= 4; round++) {
            results.append(round).append(",h2bench,2MiB,1000,0,\n")
                    .append(round).append(",h2bench-b,2MiB,1100,0,\n")
                    .append(round).append(",gtlsserver,2MiB,1000,0,\n");
        }
        Files.writeString(run.resolve("results.csv"), results);
        Files.writeString(run.resolve("handshake.csv"), "server,retry,handshake_done_ms,response_headers_ms,wall_ms\n"
                + "h2bench,no,101,203,230\nh2bench-b,no,101,203,230\ngtlsserver,no,101,203,230\n");

        Process script = new ProcessBuilder("python3", ROOT.resolve("benchmarks/h3-peers-table.py").toString(),
                run.resolve("results.csv").toString(), run.resolve("handshake.csv").toString(), "100",
                "h2bench h2bench-b gtlsserver", "2MiB", "gtlsserver")
                .redirectErrorStream(true).start();
        String output = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(script.exitValue()).as(output).isZero();
        assertThat(output).as(output)
                .contains("h2bench within issue 38's band of gtlsserver (median within 5 %, p90 within 15 %): 1 of 1 sizes")
                .contains("| 2MiB | gtlsserver | 4 | 1,000 | 1,000 | 10.0 | 1.10 | 1.10 | not met |")
                .contains("h2bench-b within issue 38's band of gtlsserver (median within 5 %, p90 within 15 %): 0 of 1 sizes");
    }
}
