package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * {@code -- COMMAND}: the client runs with the server's address in its environment, and the server
 * stops when it exits, with its exit code. Whichever engine this machine allows (the banner says).
 */
class ClientCommandTest {

    @Test
    void shouldReturnTheClientsExitCodeAndTellItWhereTheServerIsWhenACommandFollows() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = Main.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0", "--latency", "10ms", "--warm-up", "0", "--",
                "sh", "-c", "test -n \"$H2BENCH_HOST\" && test \"$H2BENCH_H2_PORT\" -gt 0 && exit 3");

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(3);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("engine: ");
    }
}
