package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.UserConnections;
import io.h2bench.parity.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One row of the interoperability matrix (issue 39): a server from Debian's packages, started on
 * free loopback ports with h2bench's certificate and the same files, and the sampler against it in
 * every {@link InteropMode}. Each cell is written to {@code target/interop/<server>.tsv} for
 * benchmarks/interop.sh's table. A cell fails the test when red, unless the row names it a known
 * limit of the server (with its source) and the cell fails exactly that way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class InteropMatrix {

    InteropSite site;
    private final List<String> rows = new ArrayList<>();

    /** The server's name in the table. */
    abstract String server();

    /** Skips (or on CI fails) when the server's program is missing: {@link OutsideServer#require}. */
    abstract void require();

    abstract void start(InteropSite site) throws Exception;

    abstract void stop() throws Exception;

    /** Where a mode's request goes and what the server is expected to do with it. */
    abstract InteropCell.Target target(InteropMode mode);

    /** A red cell's detail that is a limit of the server, not of h2bench (with its source on the site); else null. */
    String knownLimit(InteropMode mode) {
        return null;
    }

    @BeforeAll
    void startServer() throws Exception {
        require();
        InProcessJMeter.init();
        // Not @TempDir: JUnit fills that field only before each test, after a per-class @BeforeAll
        site = InteropSite.in(TempDirs.deletedAtExit("h2bench-interop-" + server()));
        start(site);
    }

    @AfterAll
    void stopServer() throws Exception {
        try {
            stop();
        } finally {
            UserConnections.stopAll();
            Path out = Files.createDirectories(Path.of("target", "interop"));
            Files.write(out.resolve(server() + ".tsv"), rows);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(InteropMode.class)
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldServeTheModeOrSayClearlyWhyNot(InteropMode mode) throws IOException {
        InteropCell.Result result = InteropCell.run(site, target(mode));
        String limit = knownLimit(mode);
        boolean known = limit != null && result.verdict() == InteropCell.Verdict.FAIL && result.detail().contains(limit);
        rows.add(String.join("\t", server(), mode.name(), known ? "LIMIT" : result.verdict().name(),
                Long.toString(result.millis()), result.detail().replace('\t', ' ')));
        System.out.printf("interop %s %s: %s in %d ms %s%n", server(), mode.label, result.verdict(), result.millis(), result.detail());
        if (limit != null && result.verdict() == InteropCell.Verdict.FAIL) {
            assertThat(result.detail()).as("the known limit of " + server()).contains(limit);
        } else {
            assertThat(result.verdict()).as(result.detail()).isNotEqualTo(InteropCell.Verdict.FAIL);
        }
    }

    /** A target for a mode the server offers on {@code port}. */
    static InteropCell.Target offered(String server, int port, InteropMode mode, List<String> codings, InteropCell.PostReply post) {
        return new InteropCell.Target(server, port, mode, null, codings, post, Map.of(), false);
    }

    /** A target for a mode the server does not offer, tried on the port a user would try. */
    static InteropCell.Target notOffered(String server, int port, InteropMode mode, String why) {
        return new InteropCell.Target(server, port, mode, why, List.of(), InteropCell.PostReply.ECHO, Map.of(), false);
    }
}
