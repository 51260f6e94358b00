package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.server.Listener;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The h2c Upgrade (RFC 7540 section 3.2) on the sampler's own engines, and what the server receives
 * of it beside curl's {@code --http2} to the same server, through a relay that keeps the client's
 * bytes: the request over HTTP/1.1 with {@code Upgrade: h2c}, {@code HTTP2-Settings} and
 * {@code Connection: Upgrade, HTTP2-Settings}; after the 101 the connection preface and a SETTINGS
 * frame holding what {@code HTTP2-Settings} announced; no HEADERS of the client's on stream 1, the
 * upgraded request's. A server that ignores the Upgrade answers over HTTP/1.1, and both clients ask
 * again with their next request on the same connection.
 */
class H2cUpgradeWireTest extends AgainstServer {

    private static final Path CURL = Path.of("/usr/bin/curl");
    /**
     * Small: curl 7.88 fails an upgrade (exit 16, "connection buffer size is too small to store data
     * following HTTP Upgrade response header") when the 101 and a 44 kB response come in one read.
     */
    private static final String PATH = "/style.css";
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADERS = 0x1;
    private static final int SETTINGS = 0x4;

    @Test
    void shouldNameTheOwnHttp11ThenTheOwnHttp2WhenTheServerUpgradesTheFirstRequest() throws Exception {
        List<ExchangeResult> results = sampler(server.port(Listener.H2C), 2);

        ExchangeResult upgraded = results.get(0);
        assertThat(upgraded.failureMessage()).isNull();
        assertThat(upgraded.engine()).isEqualTo("h1-own>h2-own");
        assertThat(upgraded.httpVersion()).isEqualTo("HTTP/2.0");
        assertThat(upgraded.newConnection()).isTrue();
        assertThat(upgraded.bodyBytes()).isPositive();
        ExchangeResult next = results.get(1);
        assertThat(next.engine()).isEqualTo("h2-own");
        assertThat(next.httpVersion()).isEqualTo("HTTP/2.0");
        assertThat(next.connectionId()).isEqualTo(upgraded.connectionId());
        assertThat(next.newConnection()).isFalse();
        assertThat(next.body()).isEqualTo(upgraded.body());
    }

    @Test
    void shouldSendWhatCurlSendsWhenTheServerUpgrades() throws Exception {
        requireCurl();
        Sent ours;
        try (CountingRelay relay = new CountingRelay(server.port(Listener.H2C))) {
            sampler(relay.port(), 2);
            ours = Sent.onlyConnection(relay);
        }
        Sent curls;
        try (CountingRelay relay = new CountingRelay(server.port(Listener.H2C))) {
            curl(relay.port(), 1);
            curls = Sent.onlyConnection(relay);
        }

        for (Sent sent : List.of(ours, curls)) {
            assertThat(sent.requestLines()).containsExactly("GET " + PATH + " HTTP/1.1");
            // In its own order: Jetty's HTTP/1.1 generator writes Connection last.
            assertThat(sent.upgradeHeaders()).containsExactlyInAnyOrderEntriesOf(curls.upgradeHeaders());
            assertThat(sent.afterHeaders()).startsWith(PREFACE);
            List<Frame> frames = sent.frames();
            assertThat(frames.get(0).type()).isEqualTo(SETTINGS);
            assertThat(frames.get(0).payload()).isEqualTo(sent.announcedSettings());
            assertThat(frames).noneMatch(frame -> frame.type() == HEADERS && frame.streamId() == 1);
        }
        System.out.printf("h2c Upgrade as sent by the sampler:%n%s%nand by curl:%n%s%n", ours.head(), curls.head());
        // Every header of ours is one curl sends too (curl adds User-Agent and Accept).
        assertThat(curls.headerNames()).containsAll(ours.headerNames());
        // The user's preset's SETTINGS, in both places.
        assertThat(ours.announcedSettings()).isEqualTo(settingsPayload(BrowserPreset.CHROME.http2().settings()));
        assertThat(ours.frames()).filteredOn(frame -> frame.type() == HEADERS).extracting(Frame::streamId).containsExactly(3);
    }

    @Test
    void shouldAskAgainOnTheSameConnectionLikeCurlWhenTheServerAnswersOverHttp11() throws Exception {
        requireCurl();
        Sent ours;
        List<ExchangeResult> results;
        try (CountingRelay relay = new CountingRelay(server.port(Listener.H1))) {
            results = sampler(relay.port(), 2);
            ours = Sent.onlyConnection(relay);
        }
        Sent curls;
        try (CountingRelay relay = new CountingRelay(server.port(Listener.H1))) {
            curl(relay.port(), 2);
            curls = Sent.onlyConnection(relay);
        }

        assertThat(results).allSatisfy(result -> {
            assertThat(result.failureMessage()).isNull();
            assertThat(result.engine()).isEqualTo("h1-own");
            assertThat(result.httpVersion()).isEqualTo("HTTP/1.1");
        });
        assertThat(results.get(1).connectionId()).isEqualTo(results.get(0).connectionId());
        assertThat(curls.requestLines()).hasSize(2);
        assertThat(ours.requestLines()).isEqualTo(curls.requestLines());
        assertThat(ours.text().split("Upgrade: h2c\r\n", -1)).hasSize(3);
        assertThat(curls.text().split("Upgrade: h2c\r\n", -1)).hasSize(3);
    }

    /** The user's {@code count} GETs in H2C_UPGRADE mode, one after the other, to 127.0.0.1:{@code port}. */
    private List<ExchangeResult> sampler(int port, int count) throws InterruptedException {
        List<ExchangeResult> results = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ExchangeRequest request = ExchangeRequest.get(URI.create("http://127.0.0.1:" + port + PATH), ProtocolMode.H2C_UPGRADE)
                    .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));
            results.add(user.send(request, ConnectionProfile.DIRECT.withPreset(BrowserPreset.CHROME)));
        }
        return results;
    }

    /** curl's {@code --http2} for the same URL {@code count} times, on one connection. */
    private static void curl(int port, int count) throws Exception {
        List<String> command = new ArrayList<>(List.of(CURL.toString(), "-s", "--http2", "-o", "/dev/null"));
        for (int i = 0; i < count; i++) {
            command.add("http://127.0.0.1:" + port + PATH);
        }
        Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(curl.waitFor(30, TimeUnit.SECONDS)).as("curl finished: %s", out).isTrue();
        assertThat(curl.exitValue()).as("curl's exit: %s", out).isZero();
    }

    /** Skips the test without curl, as the tests beside outside clients do; on CI that is a failure. */
    private static void requireCurl() {
        if (!Files.isExecutable(CURL) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install Debian's curl (bin/test): " + CURL + " is missing");
        }
        assumeTrue(Files.isExecutable(CURL), CURL + " is not installed (apt-get install curl)");
    }

    private static byte[] settingsPayload(Map<Integer, Integer> settings) {
        ByteBuffer payload = ByteBuffer.allocate(6 * settings.size());
        settings.forEach((id, value) -> payload.putShort(id.shortValue()).putInt(value));
        return payload.array();
    }

    /** One HTTP/2 frame the client sent. */
    record Frame(int type, int streamId, byte[] payload) {
    }

    /** What a client sent on one connection: HTTP/1.1 request heads, then (if upgraded) HTTP/2 frames. */
    record Sent(byte[] bytes) {

        static Sent onlyConnection(CountingRelay relay) {
            List<byte[]> connections = relay.clientBytesByConnection();
            assertThat(connections).as("connections the client opened").hasSize(1);
            return new Sent(connections.get(0));
        }

        String text() {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }

        String head() {
            return text().substring(0, text().indexOf("\r\n\r\n"));
        }

        List<String> requestLines() {
            return Arrays.stream(text().split("\r\n")).filter(line -> line.matches("[A-Z]+ /\\S* HTTP/1\\.1")).toList();
        }

        List<String> headerNames() {
            return Arrays.stream(head().split("\r\n")).skip(1).map(line -> line.substring(0, line.indexOf(':'))).toList();
        }

        /** The Upgrade's three headers of the first request, by name as written. */
        Map<String, String> upgradeHeaders() {
            Map<String, String> upgrade = new LinkedHashMap<>();
            for (String line : head().split("\r\n")) {
                String name = line.contains(":") ? line.substring(0, line.indexOf(':')) : "";
                if (List.of("connection", "upgrade").contains(name.toLowerCase(Locale.ROOT))) {
                    upgrade.put(name, line.substring(name.length() + 1).trim());
                }
            }
            upgrade.put("HTTP2-Settings present", String.valueOf(head().contains("\r\nHTTP2-Settings: ")));
            return upgrade;
        }

        /** The HTTP2-Settings header's SETTINGS payload (base64url, RFC 7540 3.2.1). */
        byte[] announcedSettings() {
            String line = Arrays.stream(head().split("\r\n")).filter(each -> each.startsWith("HTTP2-Settings: ")).findFirst().orElseThrow();
            return Base64.getUrlDecoder().decode(line.substring("HTTP2-Settings: ".length()).trim());
        }

        byte[] afterHeaders() {
            return Arrays.copyOfRange(bytes, head().length() + 4, bytes.length);
        }

        /** The frames after the preface, whole ones only. */
        List<Frame> frames() {
            ByteBuffer in = ByteBuffer.wrap(afterHeaders());
            in.position(PREFACE.length);
            List<Frame> frames = new ArrayList<>();
            while (in.remaining() >= 9) {
                int length = (in.get() & 0xff) << 16 | (in.get() & 0xff) << 8 | in.get() & 0xff;
                int type = in.get() & 0xff;
                in.get(); // flags
                int streamId = in.getInt() & 0x7fff_ffff;
                if (in.remaining() < length) {
                    break;
                }
                byte[] payload = new byte[length];
                in.get(payload);
                frames.add(new Frame(type, streamId, payload));
            }
            return frames;
        }
    }
}
