package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.client.profile.ProxySettings;
import io.h2bench.server.Listener;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The sampler's HTTP/3 against the project's h3 listener: the bytes, statuses and headers HTTP/2
 * gets, a POST's body read to its end by the server (the stream's FIN came with it), a page's
 * resources multiplexed on one QUIC connection as the server counts them, the wire bytes of the
 * connection's datagrams, the socket's receive buffer, Alt-Svc as a browser follows it, and the proxy refused.
 */
class Http3EngineTest extends AgainstServer {

    private static final String[] OBJECTS = {"/", "/small-text.txt", "/large-text.txt", "/img15.jpeg",
        "/option?size=44k", "/articles?count=3", "/option?size=abc", "/nothing-here"};

    @Test
    void shouldGetTheBytesStatusAndHeadersOfHttp2WhenSpeakingHttp3() throws Exception {
        for (String path : OBJECTS) {
            ExchangeResult h2 = get(Listener.H2, path, ProtocolMode.HTTP_2);
            ExchangeResult h3 = h3(path);

            assertThat(h3.failureMessage()).as(path).isNull();
            assertThat(h3.httpVersion()).isEqualTo("HTTP/3");
            assertThat(h3.alpn()).isEqualTo("h3");
            assertThat(h3.status()).as("status of %s", path).isEqualTo(h2.status());
            assertThat(h3.body()).as("bytes of %s", path).isEqualTo(h2.body());
            assertThat(h3.responseHeader("content-type")).as(path).isEqualTo(h2.responseHeader("content-type"));
            assertThat(h3.latencyNanos()).isPositive().isLessThanOrEqualTo(h3.elapsedNanos());
        }
    }

    @Test
    void shouldTimeTheHandshakeAsTheConnectOfTheFirstExchangeOnly() throws Exception {
        ExchangeResult first = h3("/small-text.txt");
        ExchangeResult second = h3("/small-text.txt");

        assertThat(first.newConnection()).isTrue();
        assertThat(first.connectNanos()).isPositive().isLessThan(first.latencyNanos());
        assertThat(second.newConnection()).isFalse();
        assertThat(second.connectNanos()).isZero();
        assertThat(second.connectionId()).isEqualTo(first.connectionId());
    }

    @Test
    void shouldDeliverAPostsWholeBodyWhenItsLastDataFrameEndsTheStream() throws Exception {
        for (int size : new int[] {100, 200_000}) {
            ExchangeResult result = user.send(h3Post("/option?size=7", new byte[size]));

            assertThat(result.failureMessage()).as("%d bytes", size).isNull();
            assertThat(result.status()).isEqualTo(200);
            assertThat(result.responseHeader("x-request-body-bytes")).isEqualTo(Integer.toString(size));
            assertThat(result.bodyBytes()).isEqualTo(7);
        }
    }

    @Test
    void shouldCarryAPagesResourcesOnOneQuicConnectionWhenSentAtOnce() throws Exception {
        h3("/average/start").body();
        List<CompletableFuture<ExchangeResult>> resources = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            resources.add(user.sendAsync(h3Get("/average/resource" + i)));
        }
        for (CompletableFuture<ExchangeResult> resource : resources) {
            assertThat(resource.get().status()).isEqualTo(404);
        }

        String seen = new String(h3("/average/connections").body(), java.nio.charset.StandardCharsets.UTF_8).trim();

        // "origin connections client-ends requests": one client end (UDP port) for all 31 requests
        assertThat(seen.split(" ")[1]).as(seen).isEqualTo("1");
        assertThat(seen.split(" ")[3]).as(seen).isEqualTo("31");
    }

    @Test
    void shouldAttributeEveryDatagramByteOfASequenceOfExchangesToThem() throws Exception {
        long sent = 0;
        long received = 0;
        for (String path : OBJECTS) {
            ExchangeResult result = h3(path);
            sent += result.sentBytes();
            received += result.receivedBytes();
            assertThat(result.receivedBytes()).as(path).isGreaterThan(result.bodyBytes());
        }
        long[] datagrams = user.http3Engine().datagramBytes();

        // everything but the ACKs sent (and any packets read) after the last response ended
        assertThat(received).isLessThanOrEqualTo(datagrams[0]).isGreaterThan(datagrams[0] - 2_000);
        assertThat(sent).isLessThanOrEqualTo(datagrams[1]).isGreaterThan(datagrams[1] - 2_000);
        // a client Initial is padded to 1,200 bytes (RFC 9000 14.1): the handshake is in the first sample
        assertThat(sent).isGreaterThan(1_200);
    }

    @Test
    void shouldCancelAStreamAtItsResponseTimeoutSoThatItsBodyNeverArrives() throws Exception {
        ExchangeResult abandoned = user.send(ExchangeRequest.get(h3Uri("/option?size=2m&delay=1000"), ProtocolMode.HTTP_3)
                .withTimeouts(Duration.ZERO, Duration.ofMillis(300)));
        // on the same connection, and answered after the server would have sent the first body
        ExchangeResult next = h3("/option?size=100&delay=2000");

        // worded as on the TCP engines: the one ResponseWatchdog times every engine's exchanges
        assertThat(abandoned.failureMessage()).startsWith("No response from https://").contains("within 300 ms (response timeout");
        assertThat(next.failureMessage()).isNull();
        assertThat(next.connectionId()).isEqualTo(abandoned.connectionId());
        // RFC 9114 4.1.1: STOP_SENDING and RESET_STREAM with H3_REQUEST_CANCELLED; not cancelled, the
        // 2 MB came in the next exchange's datagrams and stayed unread in the connection's window
        assertThat(next.receivedBytes()).as("bytes received during the next exchange").isLessThan(20_000);
    }

    @Test
    void shouldReadWithChromesOneMebibyteSocketBufferWhileItsConnectionIsOpen() throws Exception {
        assumeThat(Long.parseLong(Files.readAllLines(Path.of("/proc/sys/net/core/rmem_max")).get(0).trim()))
                .as("net.core.rmem_max caps SO_RCVBUF").isGreaterThanOrEqualTo(1L << 20);
        Map<Integer, Long> before = udpReceiveBuffers();

        ExchangeResult page = h3("/");
        Map<Integer, Long> after = udpReceiveBuffers();
        after.keySet().removeAll(before.keySet());

        assertThat(page.failureMessage()).isNull();
        // the connection's one new socket; Linux reports twice what SO_RCVBUF asked (socket(7)), and 208 KiB by default
        assertThat(after).as("this JVM's new UDP sockets, port to rb").hasSize(1);
        assertThat(after.values()).containsExactly(2L * 1024 * 1024);
    }

    @Test
    void shouldGoOverTlsFirstAndThenHttp3WhenTheOriginAdvertisesItInAltSvc() throws Exception {
        URI h2Origin = URI.create(server.baseUri(Listener.H2) + "/small-text.txt");

        ExchangeResult first = user.send(ExchangeRequest.get(h2Origin, ProtocolMode.HTTP_3_ALT_SVC));
        ExchangeResult second = user.send(ExchangeRequest.get(h2Origin, ProtocolMode.HTTP_3_ALT_SVC));

        assertThat(first.httpVersion()).isEqualTo("HTTP/2.0");
        assertThat(first.responseHeader("alt-svc")).contains("h3=");
        assertThat(second.failureMessage()).isNull();
        assertThat(second.httpVersion()).isEqualTo("HTTP/3");
        assertThat(second.body()).isEqualTo(first.body());
    }

    @Test
    void shouldRefuseHttp3ThroughAProxyWithTheReason() {
        ConnectionProfile proxied = new ConnectionProfile(null,
                new ProxySettings("http", "127.0.0.1", 3128, null, null, List.of()), null, 0, null);

        assertThatThrownBy(() -> user.send(ExchangeRequest.get(h3Uri("/"), ProtocolMode.HTTP_3), proxied))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HTTP/3 cannot go through an HTTP proxy")
                .hasMessageContaining("QUIC is UDP");
    }

    /** This JVM's UDP sockets, local port to receive buffer ({@code rb} of {@code ss -uampn}'s skmem). */
    private static Map<Integer, Long> udpReceiveBuffers() throws Exception {
        Process ss = new ProcessBuilder("ss", "-uampnH").redirectErrorStream(true).start();
        String listing = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ss.waitFor()).as(listing).isZero();
        Pattern socket = Pattern.compile(":(\\d+) .*pid=" + ProcessHandle.current().pid() + ",.*\\n\\s+skmem:\\(r\\d+,rb(\\d+),");
        Map<Integer, Long> buffers = new HashMap<>();
        Matcher found = socket.matcher(listing);
        while (found.find()) {
            buffers.put(Integer.parseInt(found.group(1)), Long.parseLong(found.group(2)));
        }
        return buffers;
    }

    private ExchangeResult h3(String path) throws Exception {
        return user.send(h3Get(path));
    }

    /** With a response timeout, so that a stalled connection fails the test in seconds, not at QUIC's idle timeout. */
    private ExchangeRequest h3Get(String path) {
        return ExchangeRequest.get(h3Uri(path), ProtocolMode.HTTP_3).withTimeouts(Duration.ZERO, Duration.ofSeconds(10));
    }

    /** A POST of {@code body}, with {@link #h3Get}'s response timeout. */
    private ExchangeRequest h3Post(String path, byte[] body) {
        return h3Get(path).redirected("POST", h3Uri(path),
                List.of(new HeaderField("Content-Type", "application/octet-stream")), body);
    }

    private URI h3Uri(String path) {
        return URI.create(server.h3BaseUri() + path);
    }
}
