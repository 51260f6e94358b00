package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.OperatingSystemMXBean;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.TlsMaterial;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS 1.3 server that updates its keys in the middle of a response body (a KeyUpdate that asks the
 * client to update its own, RFC 8446 4.6.3), then pauses: the sampler reads the record, answers with
 * its own KeyUpdate, and waits for the rest without spinning. Jetty's {@code SslEndPoint.fill} returns
 * 0 while its TLS state is busy with such a message, and a waiting thread that took that 0 for "nothing
 * yet" while the socket stayed readable would loop between its select and its fill. The server is the
 * JDK's own TLS socket, whose {@code startHandshake()} on a TLS 1.3 connection sends the KeyUpdate.
 * The first exchange's KeyUpdate is read by Jetty's selector (the connection's handshake had just
 * been under way), the second's by the waiting thread itself (seen with {@code -Djavax.net.debug=ssl:handshake}).
 */
class TlsKeyUpdateTest {

    private static final int HALF = 100_000;
    private static final long PAUSE_MILLIS = 1_000;
    /** A waiting thread that spun through the pause would take most of a core for it, even on a busy machine. */
    private static final long CPU_BAND_MILLIS = 300;

    @Test
    void shouldReadTheWholeBodyAndWaitQuietlyWhenTheServerUpdatesItsKeysMidBody(@TempDir Path dir) throws Exception {
        try (SSLServerSocket listener = tls13Listener(dir);
             UserConnections user = UserConnections.open()) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> answerTwice(listener));
            URI uri = URI.create("https://127.0.0.1:" + listener.getLocalPort() + "/");
            ExchangeRequest get = ExchangeRequest.get(uri, ProtocolMode.HTTP_1_1)
                    .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5));

            ExchangeResult first = user.send(get); // the handshake, and the JIT's first pass over it all
            long cpuBefore = processCpuNanos();
            ExchangeResult second = user.send(get);
            long cpuMillis = (processCpuNanos() - cpuBefore) / 1_000_000;
            served.get(5, TimeUnit.SECONDS);

            for (ExchangeResult result : new ExchangeResult[] {first, second}) {
                assertThat(result.failureMessage()).isNull();
                assertThat(result.status()).isEqualTo(200);
                assertThat(result.bodyBytes()).isEqualTo(2 * HALF);
                assertThat(result.elapsedNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS));
            }
            assertThat(second.newConnection()).as("the second exchange on the connection whose keys changed").isFalse();
            assertThat(cpuMillis).as("this JVM's CPU ms during the second exchange, %d ms of it a pause", PAUSE_MILLIS)
                    .isLessThan(CPU_BAND_MILLIS);
        }
    }

    /** A TLS 1.3 listener on loopback with a self-signed certificate kept in {@code dir}. */
    private static SSLServerSocket tls13Listener(Path dir) throws IOException, GeneralSecurityException {
        TlsMaterial tls = TlsMaterial.load(dir.resolve("keystore.p12"), TlsMaterial.GENERATED_PASSWORD, true);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            keys.load(in, tls.password().toCharArray());
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, tls.password().toCharArray());
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(managers.getKeyManagers(), null, null);
        SSLServerSocket listener = (SSLServerSocket) context.getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        listener.setEnabledProtocols(new String[] {"TLSv1.3"});
        return listener;
    }

    /** Two requests on one connection, each answered with half a body, a KeyUpdate, a pause, and the rest. */
    private static void answerTwice(SSLServerSocket listener) {
        try (SSLSocket socket = (SSLSocket) listener.accept()) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < 2; i++) {
                readHead(in);
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + 2 * HALF + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(new byte[HALF]);
                out.flush();
                socket.startHandshake(); // on TLS 1.3: KeyUpdate(update_requested)
                Thread.sleep(PAUSE_MILLIS); // the client waits here, with the KeyUpdate read
                out.write(new byte[HALF]);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("the TLS 1.3 server failed", e);
        }
    }

    private static void readHead(InputStream in) throws IOException {
        byte[] end = {'\r', '\n', '\r', '\n'};
        int matched = 0;
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the client closed before its request's end");
            }
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }

    private static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
