package io.h2bench.sampler;

import io.h2bench.parity.TempDirs;
import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The interoperability matrix's proxy rows: every sampler mode through squid and through Apache
 * httpd's mod_proxy (both Debian's), with and without Basic proxy credentials, to h2bench's server
 * and to nginx. A mode a proxy can carry must end as its peer through the same proxy ends (HttpClient4
 * for HTTP/1.1, curl's {@code -x} where HttpClient4 has no such mode): status, protocol, body bytes;
 * no {@code Proxy-Authorization} reached the origin (h2bench's server lists the header names it got,
 * nginx sends them back in {@code X-Proxy-Authorization-Seen}); the proxy's log has the request or the
 * tunnel, by the user when there are credentials. What no HTTP proxy carries (HTTP/3)
 * fails saying why, and reaches neither the proxy nor the origin. Each cell is written to
 * {@code target/interop/proxies/<proxy>-<credentials>.tsv} for benchmarks/interop.sh's proxy table.
 */
class ProxyInteropTest {

    private static final String USER = "tester";
    private static final String PASSWORD = "s3cret";
    private static final String H2BENCH_PATH = "/small-text.txt";
    /**
     * The h2c Upgrade's object (23,100 bytes): curl 7.88 fails with exit 16 when more than 32 KiB of the upgraded
     * connection come in the read that ends the 101 ({@code H2_BUFSIZE} in {@code Curl_http2_switched}, lib/http2.c:
     * "connection buffer size is too small to store data following HTTP Upgrade response header"). h2bench sends
     * the whole response right after the 101 (RFC 9113 3.2), and Apache relays it in reads as large as it got them:
     * with the 44 kB text, 20 of 100 curls through Apache failed (2026-11-29). All of this object's frames fit.
     */
    private static final String H2BENCH_UPGRADE_PATH = "/img1.jpeg";
    private static final String NGINX_PATH = "/44kB.bin";

    private static H2BenchServer h2bench;
    private static InteropSite site;
    private static OutsideServer nginx;
    private static int[] nginxPorts;

    @BeforeAll
    static void startOrigins() throws Exception {
        OutsideServer.require(NginxConfig.NGINX, "nginx");
        OutsideServer.require(Path.of(SquidProxy.SQUID), "squid");
        OutsideServer.require(ApacheConfig.APACHE, "apache2");
        InProcessJMeter.init();
        h2bench = H2BenchServer.start(ServerSettings.ephemeral());
        site = InteropSite.in(TempDirs.deletedAtExit("h2bench-proxy-interop"));
        nginxPorts = OutsideServer.freePorts(3); // h1, h2c, tls
        nginx = OutsideServer.start(NginxConfig.command(site, "127.0.0.1", nginxPorts[0], nginxPorts[1], nginxPorts[2]),
                site.directory, nginxPorts[2], site.directory.resolve("nginx.out"));
    }

    @AfterAll
    static void stopOrigins() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (h2bench != null) {
            h2bench.close();
        }
    }

    /** {@code password}: what the sampler gives a proxy that asks for {@value #PASSWORD}; none: a proxy that asks nothing. */
    @ParameterizedTest(name = "{0}, password {1}")
    @CsvSource({"squid, none", "squid, " + PASSWORD, "squid, wrong", "apache, none", "apache, " + PASSWORD, "apache, wrong"})
    void shouldEndEveryModeAsItsPeerDoesThroughTheSameProxyWhenTheSamplerNamesOne(String proxyName, String password)
            throws Exception {
        SoftAssertions softly = new SoftAssertions();
        String user = password.equals("none") ? null : USER;
        List<String> lines = new ArrayList<>();
        try (ForwardProxy proxy = proxyName.equals("squid") ? SquidProxy.start(user, PASSWORD)
                : ApacheForwardProxy.start(h2bench.port(Listener.H2C), user, PASSWORD)) {
            ProxyCell cells = new ProxyCell(proxy, proxyName, user == null ? null : USER + ":" + password, !password.equals(PASSWORD)
                    && user != null);
            for (InteropMode mode : InteropMode.values()) {
                if (mode != InteropMode.SCHEME_HTTP) { // the same as h1 through a proxy
                    lines.add(check(softly, cells, mode, h2benchOrigin(mode)));
                    lines.add(check(softly, cells, mode, nginxOrigin(mode)));
                }
            }
        } finally {
            Path out = Files.createDirectories(Path.of("target", "interop", "proxies"));
            Files.write(out.resolve(proxyName + "-" + (user == null ? "none" : password.equals(PASSWORD) ? "Basic" : "wrong") + ".tsv"),
                    lines);
        }
        softly.assertAll();
    }

    /** Runs the cell, and returns its line for benchmarks/interop.sh's table: row, mode, verdict, milliseconds, detail. */
    private static String check(SoftAssertions softly, ProxyCell cells, InteropMode mode, ProxyCell.Origin origin) throws Exception {
        long start = System.nanoTime();
        ProxyCell.Outcome outcome = cells.run(mode, origin);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.println("PROXY-CELL\t" + outcome.row());
        softly.assertThat(outcome.problems()).as(outcome.row()).isEmpty();
        String verdict = !outcome.problems().isEmpty() ? "FAIL" : outcome.carriedNowhere() ? "NOT_OFFERED" : "PASS";
        String detail = verdict.equals("FAIL") ? String.join("; ", outcome.problems()) : outcome.note();
        return String.join("\t", cells.tableRow(origin), mode.name(), verdict, Long.toString(millis),
                detail.replace('\t', ' ').replace('\n', ' '));
    }

    private static ProxyCell.Origin h2benchOrigin(InteropMode mode) {
        Listener listener = switch (mode) {
            case H1, SCHEME_HTTP -> Listener.H1;
            case H1_TLS -> Listener.H1_TLS;
            case H2C, H2C_UPGRADE -> Listener.H2C;
            default -> Listener.H2;
        };
        String path = mode == InteropMode.H2C_UPGRADE ? H2BENCH_UPGRADE_PATH : H2BENCH_PATH;
        return new ProxyCell.Origin("h2bench", h2bench.port(listener), path, null, "/option?size=100",
                query -> h2bench.requestsReceived(path + "?" + query),
                (query, headers) -> h2bench.headerNamesReceived(path + "?" + query).contains("proxy-authorization"));
    }

    private static ProxyCell.Origin nginxOrigin(InteropMode mode) {
        int port = switch (mode) {
            case H1, SCHEME_HTTP, H2C_UPGRADE -> nginxPorts[0];
            case H2C -> nginxPorts[1];
            default -> nginxPorts[2];
        };
        // nginx logs nothing here: a request reached it when its bytes came back; a leak comes back in a header
        // the POST's answer waits for its whole body: curl 7.88 fails (exit 92) an upload nginx answered and reset early
        return new ProxyCell.Origin("nginx", port, NGINX_PATH, site.file(NGINX_PATH), NginxConfig.ECHO_AFTER_BODY, query -> -1,
                (query, headers) -> headers.toLowerCase(Locale.ROOT).contains("x-proxy-authorization-seen:"));
    }
}
