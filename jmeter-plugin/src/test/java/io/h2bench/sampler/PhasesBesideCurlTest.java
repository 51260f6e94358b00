package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.KernelLinkServer;
import io.h2bench.client.UserConnections;
import io.h2bench.parity.TempDirs;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.netem.kernel.KernelLink;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 39: the sampler's Connect, Latency and elapsed against an outside server equal curl's
 * phases from the same server in the same run. nginx, Caddy, Apache httpd and h2o run in the namespace
 * of a 100 ms kernel link (h2bench's server only provides the link), so each phase is round trips, not CPU; every request
 * is on a new connection, the sampler's and curl's taking turns. Compared, the fastest of
 * {@value #RUNS} of each client (a busy machine only adds; and curl's 2 MiB took 0.9 to 1.8 s on the
 * wire, with no loss, where the sampler's took 0.9 to 1.0: its receive window grows as it reads):
 * Connect with curl's {@code time_appconnect} over TLS ({@code time_connect} in clear text: JMeter's
 * Connect includes the TLS handshake), Latency with {@code time_starttransfer}, elapsed with
 * {@code time_total}; each within 10 % or 2 ms, as issue 39 asks, except the 2 MiB elapsed, which
 * curl bounds from above only. curl speaks h2c by prior knowledge
 * itself, so it is the reference for every TCP mode. Each row goes to
 * {@code target/interop/phases/servers.tsv} for benchmarks/interop.sh.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PhasesBesideCurlTest {

    private static final Path CURL = Path.of("/usr/bin/curl");
    private static final Duration RTT = Duration.ofMillis(100);
    private static final int RUNS = 5;
    private static final double BAND = 0.10;
    private static final long FLOOR_MS = 2;
    private static final String LARGE = "/2MiB.bin";

    private H2BenchServer link;
    private InteropSite site;
    private String host;
    private final Map<String, Peer> peers = new LinkedHashMap<>();
    private final List<String> rows = new ArrayList<>();

    /** A server in the link's namespace and its ports: HTTP/1.1 and h2c in clear text (one port but for nginx's), TLS. */
    record Peer(OutsideServer process, int h1, int h2c, int tls) {

        int port(InteropMode mode) {
            return switch (mode) {
                case H1 -> h1;
                case H2C -> h2c;
                default -> tls;
            };
        }
    }

    /** One measurement of either client: Connect, Latency and elapsed, in ms. */
    record Phases(long connect, long latency, long elapsed) {

        /** Each phase's fastest among the runs. */
        static Phases fastest(List<Phases> runs) {
            return new Phases(runs.stream().mapToLong(Phases::connect).min().orElseThrow(),
                    runs.stream().mapToLong(Phases::latency).min().orElseThrow(),
                    runs.stream().mapToLong(Phases::elapsed).min().orElseThrow());
        }
    }

    @BeforeAll
    void start() throws Exception {
        OutsideServer.require(NginxConfig.NGINX, "nginx");
        OutsideServer.require(CaddyConfig.CADDY, "caddy");
        OutsideServer.require(ApacheConfig.APACHE, "apache2");
        OutsideServer.require(H2oConfig.H2O, "h2o");
        OutsideServer.require(CURL, "curl");
        InProcessJMeter.init();
        link = KernelLinkServer.start("R 100 ms", RTT);
        KernelLink kernel = link.kernelLink();
        host = kernel.serverAddress();
        site = InteropSite.in(TempDirs.deletedAtExit("h2bench-phases"));
        int[] ports = OutsideServer.freePorts(9);
        String inLink = "--net=" + kernel.namespacePath();
        peers.put("nginx", new Peer(startInLink(inLink, NginxConfig.command(site, host, ports[0], ports[1], ports[2]), ports[2], "nginx.out"),
                ports[0], ports[1], ports[2]));
        peers.put("caddy", new Peer(startInLink(inLink, CaddyConfig.command(site, host, ports[3], ports[4]), ports[4], "caddy.log"),
                ports[3], ports[3], ports[4]));
        peers.put("apache", new Peer(startInLink(inLink, ApacheConfig.command(site, host, ports[5], ports[6]), ports[6], "apache2.out"),
                ports[5], ports[5], ports[6]));
        peers.put("h2o", new Peer(startInLink(inLink, H2oConfig.command(site, host, ports[7], ports[8]), ports[8], "h2o.out"),
                ports[7], ports[7], ports[8]));
    }

    private OutsideServer startInLink(String inLink, List<String> command, int port, String log) throws Exception {
        return OutsideServer.start(Stream.concat(Stream.of("nsenter", inLink), command.stream()).toList(), site.directory,
                new InetSocketAddress(host, port), site.directory.resolve(log));
    }

    @AfterAll
    void stop() throws Exception {
        try {
            for (Peer peer : peers.values()) {
                peer.process().close();
            }
            if (link != null) {
                link.close();
            }
        } finally {
            UserConnections.stopAll();
            Path out = Files.createDirectories(Path.of("target", "interop", "phases"));
            Files.write(out.resolve("servers.tsv"), rows);
        }
    }

    static Stream<Arguments> cells() {
        return Stream.of("nginx", "caddy", "apache", "h2o").flatMap(server -> Stream.of(InteropMode.H1, InteropMode.H1_TLS, InteropMode.H2, InteropMode.H2C)
                .flatMap(mode -> Stream.of("/44kB.bin", LARGE).map(path -> Arguments.of(server, mode, path))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cells")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldTakeCurlsPhasesWhenBothFetchFromTheServerOverNewConnections(String server, InteropMode mode, String path)
            throws Exception {
        int port = peers.get(server).port(mode);
        sample(server, mode, port, path); // the first of each: JIT, and the server's first connection on this port
        curl(mode, port, path);
        List<Phases> sampler = new ArrayList<>();
        List<Phases> curl = new ArrayList<>();
        for (int run = 0; run < RUNS; run++) {
            sampler.add(sample(server, mode, port, path));
            curl.add(curl(mode, port, path));
        }
        Phases ours = Phases.fastest(sampler);
        Phases theirs = Phases.fastest(curl);
        String row = String.join("\t", server, mode.name(), path, ours.connect() + "/" + theirs.connect(),
                ours.latency() + "/" + theirs.latency(), ours.elapsed() + "/" + theirs.elapsed());
        rows.add(row);
        System.out.printf("phases %s %s %s: sampler %s, curl %s%n", server, mode.label, path, sampler, curl);
        assertThat(ours.connect()).as("Connect, %s", row).isCloseTo(theirs.connect(), band(theirs.connect()));
        assertThat(ours.latency()).as("Latency, %s", row).isCloseTo(theirs.latency(), band(theirs.latency()));
        if (path.equals(LARGE)) {
            // curl's own reading sets its window: on a busy machine its 2 MiB ran late on the wire, the
            // sampler's not, so curl bounds the sampler from above only
            assertThat(ours.elapsed()).as("elapsed, %s", row).isLessThanOrEqualTo(theirs.elapsed() + band(theirs.elapsed()).value);
        } else {
            assertThat(ours.elapsed()).as("elapsed, %s", row).isCloseTo(theirs.elapsed(), band(theirs.elapsed()));
        }
    }

    private static Offset<Long> band(long reference) {
        return Offset.offset(Math.max(FLOOR_MS, Math.round(reference * BAND)));
    }

    /** One sample as a new user: its own, new connection, closed after it. */
    private Phases sample(String server, InteropMode mode, int port, String path) {
        Http2Sampler sampler = InteropCell.sampler(server, mode, host, port, "GET", path);
        try {
            HTTPSampleResult result = (HTTPSampleResult) sampler.sample();
            assertThat(result.getResponseCode()).as("%s %s: %s", mode.label, path, result.getResponseMessage()).isEqualTo("200");
            assertThat(result.getResponseData()).hasSameSizeAs(site.file(path));
            assertThat(InteropCell.protocolOf(result)).isEqualTo(mode.protocol);
            return new Phases(result.getConnectTime(), result.getLatency(), result.getTime());
        } finally {
            sampler.threadFinished();
        }
    }

    /** curl's phases from its {@code -w} times, which begin at its first step, not at its process start. */
    private Phases curl(InteropMode mode, int port, String path) throws IOException, InterruptedException {
        String version = switch (mode) {
            case H1, H1_TLS -> "--http1.1";
            case H2 -> "--http2";
            case H2C -> "--http2-prior-knowledge";
            default -> throw new IllegalArgumentException(mode.name());
        };
        String url = mode.scheme + "://" + host + ":" + port + path;
        Process curl = new ProcessBuilder(CURL.toString(), "-s", "-k", "-o", "/dev/null", version,
                "-w", "%{http_code} %{http_version} %{time_connect} %{time_appconnect} %{time_starttransfer} %{time_total}", url)
                .redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertThat(curl.waitFor(30, TimeUnit.SECONDS)).as("curl %s finished", url).isTrue();
        String[] fields = out.split(" ");
        assertThat(fields).as("curl %s: %s", url, out).hasSize(6);
        assertThat(fields[0]).as("curl's status from %s", url).isEqualTo("200");
        long connect = millis(mode.tls() ? fields[3] : fields[2]);
        return new Phases(connect, millis(fields[4]), millis(fields[5]));
    }

    private static long millis(String seconds) {
        return Math.round(Double.parseDouble(seconds.replace(',', '.')) * 1000);
    }
}
