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
 * benchmarks/server-speed-table.py on a made-up run of server-speed.sh: beside each server's own CPU per
 * request, the machine's (h2load and all kernel work counted alike for both servers) and its ratio, and
 * where each row's CPU went. The made-up row is issue 41's plain h1 row with 2 MiB at 1,000 connections
 * as loopback shows it: h2bench's server at twice nginx's CPU per request, the machine at two thirds.
 */
class ServerSpeedTableScriptTest {

    private static final String COLUMNS = "body,connections,protocol,server,repeat,requests,req_per_s,errors,"
            + "server_cpu_us_per_request,rss_mb,client_cpu_pct,load1";
    private static final String MACHINE_COLUMNS = ",h2load_cpu_us_per_request,ksoftirqd_cpu_us_per_request,"
            + "machine_cpu_us_per_request,machine_user_us_per_request,machine_system_us_per_request,"
            + "machine_softirq_us_per_request,machine_irq_us_per_request,machine_steal_us_per_request,"
            + "tcp_segments_per_request";

    @TempDir
    Path run;

    @Test
    void shouldRateTheMachinesCpuPerRequestBesideTheServersWhenTheRunMeasuredIt() throws Exception {
        Files.writeString(run.resolve("results.csv"), COLUMNS + MACHINE_COLUMNS + "\n"
                + "2MiB,1000,h1,h2bench,1,16000,2000.0,0,400.0,300,100,2.5,450.0,50.0,1000.0,300.0,400.0,300.0,0.0,0.0,70.0\n"
                + "2MiB,1000,h1,nginx,1,8000,1000.0,0,200.0,25,100,2.5,1000.0,20.0,1500.0,400.0,500.0,600.0,0.0,0.0,210.0\n");

        String output = table();

        assertThat(output).as(output)
                .contains("| CPU ratio | h2bench machine CPU µs/req | nginx machine CPU µs/req | machine CPU ratio |")
                .contains("| 2MiB | 1,000 | h1 | 2,000 | 1,000 | 2.00 | 400 | 200 | 2.00 | 1,000 | 1,500 | 0.67 | - | - | 300 | 25 |")
                .contains("| 2MiB | 1,000 | h1 | h2bench | 400 | 450 | 50 | 100 | 1,000 | 300 | 400 | 300 | 70 |")
                .contains("| 2MiB | 1,000 | h1 | nginx | 200 | 1,000 | 20 | 280 | 1,500 | 400 | 500 | 600 | 210 |");
    }

    @Test
    void shouldShowNoMachineCpuWhenTheRunPredatesIt() throws Exception {
        Files.writeString(run.resolve("results.csv"), COLUMNS + "\n"
                + "2MiB,1000,h1,h2bench,1,16000,2000.0,0,400.0,300,100,2.5\n"
                + "2MiB,1000,h1,nginx,1,8000,1000.0,0,200.0,25,100,2.5\n");

        String output = table();

        assertThat(output).as(output)
                .contains("| 2MiB | 1,000 | h1 | 2,000 | 1,000 | 2.00 | 400 | 200 | 2.00 | - | - | - | - | - | 300 | 25 |")
                .doesNotContain("Where the CPU went");
    }

    /**
     * 2 MiB over h2 at 1,000 connections, as the idle run of 2026-11-29 16:00 gave it: 10 streams on each
     * connection hold more than the measured seconds deliver, so h2bench, which interleaves its streams,
     * finished 0.70x the responses nginx did while h2load received the same bytes from both.
     */
    @Test
    void shouldRateTheBytesReceivedWhereFinishedResponsesFollowTheServersOrder() throws Exception {
        Files.writeString(run.resolve("results.csv"), COLUMNS + MACHINE_COLUMNS + ",mib_per_s\n"
                + "2MiB,1000,h2,h2bench,1,2908,363.5,0,3312.0,664,104,3.2,3105.0,65.0,6558.0,3769.0,1764.0,1025.0,0.0,0.0,172.0,1607.5\n"
                + "2MiB,1000,h2,nginx,1,4140,517.5,0,2691.0,829,106,3.3,2302.0,94.0,5152.0,2495.0,1961.0,696.0,0.0,0.0,209.0,1620.3\n");

        String output = table();

        assertThat(output).as(output)
                .contains("| machine CPU ratio | MiB/s ratio | machine CPU per MiB ratio |")
                .contains("| 2MiB | 1,000 | h2 | 364 | 518 | 0.70 | 3,312 | 2,691 | 1.23 | 6,558 | 5,152 | 1.27 | 0.99 | 0.90 | 664 | 829 |");
    }

    private String table() throws Exception {
        assumeTrue(runs("python3", "--version"), "python3 is needed");
        Process script = new ProcessBuilder("python3", ROOT.resolve("benchmarks/server-speed-table.py").toString(),
                run.toString()).redirectErrorStream(true).start();
        String output = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(script.exitValue()).as(output).isZero();
        return output;
    }
}
