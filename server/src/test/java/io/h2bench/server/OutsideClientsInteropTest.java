package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.h2bench.server.OutsideClient.Ask;
import io.h2bench.server.OutsideClient.Exchange;
import io.h2bench.server.OutsideClient.Mode;
import io.h2bench.server.objects.SeedPage;

/**
 * The interop matrix's other direction (issue 39): clients that share no code with h2bench (curl,
 * nghttp, h2load, gtlsclient, Go's net/http, Chromium) against h2bench's own listeners, each in
 * every mode the matrix has. Where the client offers the mode, a cell GETs objects of 100 B, 44 kB
 * and 2 MiB (length and SHA-256 equal to the server's bytes), POSTs 54,000 bytes to the option object
 * (which answers their count in {@code X-Request-Body-Bytes}) and sends a HEAD, and every exchange
 * must be over the asked protocol as the client reports it. Each cell is written to
 * {@code target/interop/clients/<client>.tsv} for benchmarks/interop.sh's second table. A missing
 * client skips its cells (on CI a failure); a red cell fails, unless it is a known limit of the server
 * named here with its source (shown LIMIT).
 */
class OutsideClientsInteropTest {

    /** Jetty's h2c Upgrade takes no request with a body: HTTP2CServerConnectionFactory.upgradeConnection
     *  returns null when the request's content length is above 0, and the request is answered over HTTP/1.1. */
    static final String JETTY_UPGRADE_WITH_BODY = "Jetty declines the h2c Upgrade of a request with a body "
            + "(HTTP2CServerConnectionFactory.upgradeConnection, content length > 0): answered over HTTP/1.1";

    /**
     * curl 7.88 keeps at most 32 KiB (its HTTP/2 buffer) of what arrives with the 101: when the upgraded
     * response's first frames come in the same reads (it depends on timing), it gives up with exit 16.
     */
    static final String CURL_UPGRADE_BUFFER = "connection buffer size is too small to store data following HTTP Upgrade response header";

    static final String SMALL = "/option?size=100";
    static final byte[] POST_BODY = new byte[54_000];
    static final List<Ask> ASKS = List.of(
            new Ask("GET", SMALL, null),
            new Ask("GET", "/small-text.txt", null),
            new Ask("GET", "/large-text.txt", null),
            new Ask("POST", SMALL, POST_BODY),
            new Ask("HEAD", "/small-text.txt", null));

    enum Verdict { PASS, NOT_OFFERED, LIMIT, FAIL }

    record Result(Verdict verdict, String detail) {
    }

    @TempDir
    static Path work;
    private static H2BenchServer server;
    private static final Map<String, OutsideClient> CLIENTS = new LinkedHashMap<>();
    private static final Map<String, List<String>> ROWS = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        new Random(39).nextBytes(POST_BODY);
        server = H2BenchServer.start(ServerSettings.ephemeral());
        List<OutsideClient> all = new ArrayList<>(CommandLineClients.all(work));
        all.add(new ChromiumClient(server.tls()));
        all.forEach(client -> CLIENTS.put(client.name(), client));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        Path out = Files.createDirectories(Path.of("target", "interop", "clients"));
        for (Map.Entry<String, List<String>> rows : ROWS.entrySet()) {
            Files.write(out.resolve(rows.getKey() + ".tsv"), rows.getValue());
        }
    }

    static Stream<Arguments> cells() {
        return Stream.of("curl", "nghttp", "h2load", "gtlsclient", "go", "chromium")
                .flatMap(client -> Stream.of(Mode.values()).map(mode -> Arguments.of(client, mode)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cells")
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldServeEveryModeTheClientOffers(String name, Mode mode) throws Exception {
        OutsideClient client = CLIENTS.get(name);
        client.assumeInstalled();
        long start = System.nanoTime();
        Result result = run(client, mode);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        ROWS.computeIfAbsent(name, key -> new ArrayList<>()).add(String.join("\t", name, mode.name(), result.verdict().name(),
                Long.toString(millis), result.detail().replace('\t', ' ').replace('\n', ' ')));
        System.out.printf("interop %s %s: %s in %d ms %s%n", name, mode.label, result.verdict(), millis, result.detail());

        assertThat(result.verdict()).as(result.detail()).isNotEqualTo(Verdict.FAIL);
    }

    private static Result run(OutsideClient client, Mode mode) throws Exception {
        String notOffered = client.notOffered(mode);
        if (notOffered != null) {
            return new Result(Verdict.NOT_OFFERED, notOffered);
        }
        List<String> unchecked = new ArrayList<>();
        List<Ask> asks = new ArrayList<>();
        for (Ask ask : ASKS) {
            String why = client.unchecked(mode, ask);
            if (why == null) {
                asks.add(ask);
            } else {
                unchecked.add(why);
            }
        }
        Path cellWork = Files.createDirectories(work.resolve(client.name() + "-" + mode.name()));
        List<Exchange> exchanges = client.fetch(mode, mode.base(server), asks, cellWork);
        List<String> failures = new ArrayList<>();
        List<String> limits = new ArrayList<>();
        for (int i = 0; i < asks.size(); i++) {
            check(mode, asks.get(i), exchanges.get(i), failures, limits, unchecked);
        }
        if (!failures.isEmpty()) {
            failures.addAll(limits);
            return new Result(Verdict.FAIL, String.join("; ", failures));
        }
        if (!limits.isEmpty()) {
            return new Result(Verdict.LIMIT, String.join("; ", limits));
        }
        return new Result(Verdict.PASS, String.join("; ", unchecked.stream().distinct().toList()));
    }

    private static void check(Mode mode, Ask ask, Exchange exchange, List<String> failures, List<String> limits, List<String> unchecked) {
        if (exchange.failure() != null) {
            boolean curlsBuffer = mode == Mode.H2C_UPGRADE && exchange.failure().contains(CURL_UPGRADE_BUFFER);
            (curlsBuffer ? limits : failures).add(ask + ": " + exchange.failure());
            return;
        }
        if (!exchange.status().equals("200") && !exchange.status().equals("2xx")) {
            failures.add(ask + ": status " + exchange.status());
            return;
        }
        if (!exchange.protocol().equals(mode.protocol)) {
            if (mode == Mode.H2C_UPGRADE && ask.body() != null && exchange.protocol().equals("HTTP/1.1")) {
                limits.add(ask + ": " + JETTY_UPGRADE_WITH_BODY);
            } else {
                failures.add(ask + ": " + exchange.protocol() + ", not " + mode.protocol);
                return;
            }
        }
        byte[] expected = expected(ask);
        if (exchange.bodyBytes() != expected.length) {
            failures.add(ask + ": " + exchange.bodyBytes() + " body bytes, not " + expected.length);
        } else if (exchange.sha256() == null) {
            unchecked.add("the bodies' SHA-256 (the client counts a body's bytes and discards it)");
        } else if (!exchange.sha256().equals(CommandLineClients.sha256(expected))) {
            failures.add(ask + ": SHA-256 differs from the server's bytes");
        }
        if (ask.body() != null) {
            if (exchange.requestBodyBytes() == null) {
                unchecked.add("X-Request-Body-Bytes of the POST (the client shows no response headers)");
            } else if (!exchange.requestBodyBytes().equals(Integer.toString(ask.body().length))) {
                failures.add(ask + ": the server counted " + exchange.requestBodyBytes() + " body bytes, not " + ask.body().length);
            }
        }
    }

    /** The bytes h2bench serves for the ask: the seed page's texts, the option object's pattern, nothing to a HEAD. */
    private static byte[] expected(Ask ask) {
        if (ask.method().equals("HEAD")) {
            return new byte[0];
        }
        if (ask.path().equals(SMALL)) {
            byte[] line = "h2bench option body 0123456789 abcdefghijklmnopqrstuvwxyz\n".getBytes(StandardCharsets.US_ASCII);
            byte[] bytes = new byte[100];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = line[i % line.length];
            }
            return bytes;
        }
        return SeedPage.get().objects().get(ask.path()).bytes();
    }
}
