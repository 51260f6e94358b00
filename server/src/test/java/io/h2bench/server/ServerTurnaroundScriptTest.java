package io.h2bench.server;

import static io.h2bench.server.BenchmarkScripts.ROOT;
import static io.h2bench.server.BenchmarkScripts.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * benchmarks/server-turnaround.py pairs each request with the server's answer on a made-up capture of
 * its own (--self-test): a connection that carries no request has no response time, and a response
 * of two flights is timed to the end of its first. It once timed Chromium's spare h2 connection up to
 * the server's GOAWAY (395 ms) and an h1-tls image up to its second flight (100 ms); on that capture
 * the old pairing printed 250.64 ms where 0.79 is right.
 */
class ServerTurnaroundScriptTest {

    @Test
    void shouldTimeOnlyTheFirstFlightOfAnswersToRequestsWhenConnectionsIdleOrResponsesSpanFlights() throws Exception {
        assumeTrue(runs("python3", "--version") && runs("tshark", "--version"), "python3 and tshark are needed");

        Process script = new ProcessBuilder("python3", ROOT.resolve("benchmarks/server-turnaround.py").toString(), "--self-test")
                .redirectErrorStream(true).start();
        String output = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(script.exitValue()).as(output).isZero();
        assertThat(output).contains("self-test: ok");
    }
}
