package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 9218's priorities, as a browser sends them (Chromium: {@code u=0, i} for the document, {@code u=1}
 * for style sheets, images lower): h2bench's h3 listener beside ngtcp2's server ({@code gtlsserver},
 * whose nghttp3 schedules by them), on loopback. Four 2 MiB responses asked for at once on one
 * connection, the later requests more urgent: both servers must finish them in the same order, the
 * most urgent first, where one that ignores priorities sends them by stream id. Read at the client:
 * the order in which the responses' last bytes arrive. gtlsclient sends no {@code priority} header,
 * so the client is Netty's (quiche inside, as the listener's).
 */
class Http3PriorityTest {

    private static final Path GTLSSERVER = Path.of("/usr/sbin/gtlsserver");
    private static final String SIZE = "2m";
    private static final int BYTES = 2 * 1024 * 1024;
    private static final long TIMEOUT_SECONDS = 20;
    /**
     * What a server may send of each response before the client reads: far below {@link #BYTES}, so that no
     * response can end before the client has sent every request and PRIORITY_UPDATE. Read at once, response 0
     * ended before the update that came after the requests in a fresh-clone CI run (order [0, 3, 1, 2], 2026-11-29).
     */
    private static final long RESPONSE_WINDOW = 64 * 1024;

    @TempDir
    static Path directory;
    private static H2BenchServer h2bench;
    private static Process gtlsserver;
    private static int gtlsserverPort;

    @BeforeAll
    static void start() throws Exception {
        if (!Files.isExecutable(GTLSSERVER) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install Debian's ngtcp2-server (bin/test): " + GTLSSERVER + " is missing");
        }
        assumeTrue(Files.isExecutable(GTLSSERVER), "gtlsserver is not installed (apt-get install ngtcp2-server)");
        h2bench = H2BenchServer.start(ServerSettings.ephemeral().withH3Port(Http3Listener.ON_H2_PORT));
        Path htdocs = Files.createDirectories(directory.resolve("htdocs"));
        Files.write(htdocs.resolve("object.bin"), new byte[BYTES]);
        Path pem = keyAndCertificate(h2bench.tls(), directory.resolve("h2bench.pem"));
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            gtlsserverPort = probe.getLocalPort(); // gtlsserver takes a number, not 0: a free one, closed just before it binds it
        }
        gtlsserver = new ProcessBuilder(GTLSSERVER.toString(), "--quiet", "--htdocs=" + htdocs, "127.0.0.1",
                Integer.toString(gtlsserverPort), pem.toString(), pem.toString())
                .redirectErrorStream(true).redirectOutput(directory.resolve("gtlsserver.log").toFile()).start();
        awaitBound(gtlsserverPort);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (gtlsserver != null) {
            gtlsserver.destroy();
            if (!gtlsserver.waitFor(10, TimeUnit.SECONDS)) {
                gtlsserver.destroyForcibly().waitFor();
            }
        }
        if (h2bench != null) {
            h2bench.close();
        }
    }

    @Test
    void shouldFinishTheMostUrgentResponseFirstWhenRequestsSayTheirPriorityAsNgtcp2sServerDoes() throws Exception {
        List<String> headers = List.of("", "u=4", "u=2", "u=0"); // "" sends none: urgency 3
        List<Integer> fromGtlsserver = completionOrder(gtlsserverPort, "/object.bin", headers, Map.of());
        List<Integer> fromH2bench = completionOrder(h2bench.h3Port(), "/option?size=" + SIZE, headers, Map.of());

        System.out.printf("completion order of %s: gtlsserver %s, h2bench %s%n", headers, fromGtlsserver, fromH2bench);
        assertThat(fromGtlsserver).as("gtlsserver's order of %s, the reference", headers).containsExactly(3, 2, 0, 1);
        assertThat(fromH2bench).as("h2bench's order of the same requests").isEqualTo(fromGtlsserver);
    }

    @Test
    void shouldFinishTheMostUrgentResponseFirstWhenAPriorityUpdateSaysItAsNgtcp2sServerDoes() throws Exception {
        List<String> headers = List.of("", "", "", "");
        // before the requests, as a browser that learnt more about a resource it asked for: RFC 9218 §7.1
        Map<Integer, String> updates = Map.of(3, "u=0", 1, "u=5");
        List<Integer> fromGtlsserver = completionOrder(gtlsserverPort, "/object.bin", headers, updates);
        List<Integer> fromH2bench = completionOrder(h2bench.h3Port(), "/option?size=" + SIZE, headers, updates);

        System.out.printf("completion order with PRIORITY_UPDATEs %s: gtlsserver %s, h2bench %s%n", updates, fromGtlsserver, fromH2bench);
        assertThat(fromGtlsserver).as("gtlsserver's order, the reference").containsExactly(3, 0, 2, 1);
        assertThat(fromH2bench).as("h2bench's order of the same requests").isEqualTo(fromGtlsserver);
    }

    @Test
    void shouldReorderResponsesUnderWayWhenAPriorityUpdateFollowsTheRequestsAsNgtcp2sServerDoes() throws Exception {
        List<String> headers = List.of("", "", "", "");
        Map<Integer, String> updates = Map.of(3, "u=0");
        List<Integer> fromGtlsserver = completionOrder(gtlsserverPort, "/object.bin", headers, updates, false);
        List<Integer> fromH2bench = completionOrder(h2bench.h3Port(), "/option?size=" + SIZE, headers, updates, false);

        System.out.printf("completion order with PRIORITY_UPDATEs %s after the requests: gtlsserver %s, h2bench %s%n", updates,
                fromGtlsserver, fromH2bench);
        assertThat(fromGtlsserver).as("gtlsserver's order, the reference").containsExactly(3, 0, 1, 2);
        assertThat(fromH2bench).as("h2bench's order of the same requests").isEqualTo(fromGtlsserver);
    }

    private static List<Integer> completionOrder(int port, String path, List<String> headers, Map<Integer, String> updates)
            throws Exception {
        return completionOrder(port, path, headers, updates, true);
    }

    /**
     * Sends one request per {@code headers} (its {@code priority} header, "" for none) at once on a new
     * connection, and PRIORITY_UPDATEs ({@code updates}: the request's index, its priority) before them or
     * right after them, then reads the responses, each stalled at {@link #RESPONSE_WINDOW} until then: the
     * requests' indexes in the order their responses completed.
     */
    private static List<Integer> completionOrder(int port, String path, List<String> headers, Map<Integer, String> updates,
                                                 boolean updatesFirst) throws Exception {
        List<Integer> completed = Collections.synchronizedList(new ArrayList<>());
        try (RawH3Client client = RawH3Client.startWithResponseWindow(RESPONSE_WINDOW)) {
            RawH3Client.Connection connection = client.connect("127.0.0.1", port).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (updatesFirst) {
                updates.forEach((index, field) -> connection.priorityUpdate(4L * index, field)); // client request streams: 0, 4, 8, ...
            }
            URI uri = URI.create("https://127.0.0.1:" + port + path);
            List<CompletableFuture<?>> responses = new ArrayList<>();
            List<RawH3Client.Exchange> exchanges = new ArrayList<>();
            for (int n = 0; n < headers.size(); n++) {
                int index = n;
                String priority = headers.get(n);
                RawH3Client.Request request = priority.isEmpty() ? RawH3Client.get(uri) : RawH3Client.get(uri).with("priority", priority);
                RawH3Client.Exchange exchange = connection.requestReadLater(request);
                exchanges.add(exchange);
                responses.add(exchange.response().thenRun(() -> {
                    assertThat(exchange.bodyBytes()).as("body of response %d", index).isEqualTo(BYTES);
                    completed.add(index);
                }));
            }
            if (!updatesFirst) {
                updates.forEach((index, field) -> connection.priorityUpdate(4L * index, field));
            }
            exchanges.forEach(RawH3Client.Exchange::startReading);
            CompletableFuture.allOf(responses.toArray(CompletableFuture[]::new)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            connection.close();
        }
        return List.copyOf(completed);
    }

    /** {@code tls}'s key and certificate, both in one PEM file, which GnuTLS reads for either. */
    private static Path keyAndCertificate(TlsMaterial tls, Path pem) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            store.load(in, tls.password().toCharArray());
        }
        try (JcaPEMWriter writer = new JcaPEMWriter(Files.newBufferedWriter(pem))) {
            writer.writeObject(new JcaPKCS8Generator((PrivateKey) store.getKey(TlsMaterial.ALIAS, tls.password().toCharArray()), null));
            writer.writeObject(store.getCertificate(TlsMaterial.ALIAS));
        }
        return pem;
    }

    /** Waits until a process has bound UDP {@code port} on 127.0.0.1, as the kernel lists its sockets. */
    private static void awaitBound(int port) throws IOException, InterruptedException {
        String local = String.format(" 0100007F:%04X ", port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (Files.readAllLines(Path.of("/proc/net/udp")).stream().noneMatch(line -> line.contains(local))) {
            assertThat(gtlsserver.isAlive()).as("gtlsserver runs; its log is in %s", directory).isTrue();
            assertThat(System.nanoTime()).as("gtlsserver bound UDP port %d in time", port).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
