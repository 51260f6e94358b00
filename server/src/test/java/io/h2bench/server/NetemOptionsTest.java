package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.netem.LinkProfile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class NetemOptionsTest {

    @Command(name = "server")
    static final class Server implements Runnable {
        @Mixin
        NetemOptions netem;

        @Override
        public void run() {
        }
    }

    @Test
    void shouldBeIdealWhenNoOptionIsGiven() {
        assertThat(parse().isIdeal()).isTrue();
        assertThat(parse().describe()).isEqualTo("no network emulation");
    }

    @Test
    void shouldCombineLatencyBandwidthAndLossWhenAllAreGiven() {
        LinkProfile profile = parse("--latency", "100ms", "--bandwidth", "1.6mbit", "--bandwidth-up", "750kbit",
                "--loss", "1%", "--seed", "7");

        assertThat(profile).isEqualTo(new LinkProfile("custom", Duration.ofMillis(100), 1_600_000, 750_000, 0.01, 7));
        assertThat(profile.describe())
                .isEqualTo("custom: rtt 100 ms, down 1.6 Mbit/s, up 750 kbit/s, loss 1 % (seed 7)");
    }

    @Test
    void shouldUseDevToolsNumbersWhenProfileIsNamed() {
        LinkProfile profile = parse("--profile", "Regular 3G");

        assertThat(profile).isEqualTo(LinkProfile.preset("regular-3g"));
        assertThat(profile.describe()).isEqualTo("regular-3g: rtt 100 ms, down 768 kbit/s, up 256 kbit/s, loss 0 %");
    }

    @Test
    void shouldOverridePresetWhenOptionIsAlsoGiven() {
        LinkProfile profile = parse("--profile", "good-3g", "--latency", "300", "--bandwidth-down", "unlimited");

        assertThat(profile.name()).isEqualTo("good-3g, modified");
        assertThat(profile.rtt()).isEqualTo(Duration.ofMillis(300));
        assertThat(profile.downBitsPerSecond()).isZero();
        assertThat(profile.upBitsPerSecond()).isEqualTo(750 * 1024);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--latency|fast|Invalid value for option '--latency': 'fast' is not a duration such as 100ms or 0.5s",
        "--latency|100min|Invalid value for option '--latency': '100min' has unknown unit 'min': use ms, s or us",
        "--bandwidth|1.6mbps|Invalid value for option '--bandwidth': '1.6mbps' is ambiguous (bits or bytes?): "
            + "write it in bit, kbit, mbit or gbit, e.g. 1.6mbit",
        "--bandwidth-up|1600|Invalid value for option '--bandwidth-up': '1600' needs a unit: bit, kbit, mbit "
            + "or gbit, e.g. 1.6mbit",
        "--loss|60%|Invalid value for option '--loss': '60%' is too much loss: use less than 50%",
        "--loss|0.5x|Invalid value for option '--loss': '0.5x' must be a percentage such as 1% or 0.3%",
        "--profile|5g|Invalid value for option '--profile': unknown profile '5g': use one of gprs, regular-2g, "
            + "good-2g, regular-3g, good-3g, regular-4g, dsl, wifi",
        "--seed|abc|Invalid value for option '--seed': 'abc' is not a long",
    })
    void shouldExplainInOneLineWhenValueIsBad(String option, String value, String message) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Server()).setErr(new PrintWriter(err));

        int exit = cli.execute(option, value);

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().lines().findFirst()).contains(message);
    }

    private static LinkProfile parse(String... args) {
        Server server = new Server();
        new CommandLine(server).parseArgs(args);
        return server.netem.profile();
    }
}
