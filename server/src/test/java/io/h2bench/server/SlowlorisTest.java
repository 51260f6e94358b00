package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Slowloris on every listener: many connections that send nothing (not even a TLS ClientHello), or
 * a request head one byte at a time (inside TLS on h1-tls and h2). Jetty holds them without a thread
 * each, so others are served; the idle timeout (1 s here, 30 s by default) closes them once they
 * stop. Jetty 12.1 has no deadline for a whole request head; ConnectionCapTest bounds their number.
 */
class SlowlorisTest extends AbuseTestBase {

    private static final int ATTACKERS = 200;
    private static final Duration IDLE = Duration.ofSeconds(1);
    private static final Duration TRICKLE = Duration.ofMillis(2500);
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEADERS_OF_1000_BYTES = {0, 0x03, (byte) 0xe8, 0x1, 0x4, 0, 0, 0, 1};

    @BeforeAll
    static void shortenIdleTimeouts() {
        for (Listener listener : Listener.values()) {
            server.connector(listener).setIdleTimeout(IDLE.toMillis());
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldCloseSilentConnectionsAtTheIdleTimeoutWhileOthersAreServed(Listener listener) throws Exception {
        int closed = bystanders.survive(listener, () -> {
            List<Socket> silent = connect(listener, false);
            return closedByServer(silent);
        });

        assertThat(closed).as("silent connections the server closed").isEqualTo(ATTACKERS);
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldServeOthersWhileHeadsTrickleAndCloseTheTricklersWhenTheyPause(Listener listener) throws Exception {
        int closed = bystanders.survive(listener, () -> {
            List<Socket> slow = connect(listener, true);
            for (Socket socket : slow) {
                socket.getOutputStream().write(headStart(listener));
            }
            trickle(slow);
            return closedByServer(slow);
        });

        assertThat(closed).as("trickling connections closed after they paused").isEqualTo(ATTACKERS);
    }

    /** Silent ones send nothing, not even a TLS ClientHello; the others complete TLS (ALPN h2 on h2) first. */
    private static List<Socket> connect(Listener listener, boolean handshake) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < ATTACKERS; i++) {
            Socket socket = new Socket("127.0.0.1", server.port(listener));
            sockets.add(handshake && listener.secure() ? overTls(socket, listener) : socket);
        }
        return sockets;
    }

    private static Socket overTls(Socket socket, Listener listener) throws IOException {
        SSLSocket tls = (SSLSocket) TestClients.trustAll().getSocketFactory().createSocket(socket, "localhost", socket.getPort(), true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {listener == Listener.H2 ? "h2" : "http/1.1"});
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return tls;
    }

    private static byte[] headStart(Listener listener) {
        if (listener == Listener.H1 || listener == Listener.H1_TLS) {
            return "GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
        }
        byte[] start = new byte[PREFACE.length + 9 + HEADERS_OF_1000_BYTES.length];
        System.arraycopy(PREFACE, 0, start, 0, PREFACE.length);
        start[PREFACE.length + 3] = 0x4; // an empty SETTINGS frame
        System.arraycopy(HEADERS_OF_1000_BYTES, 0, start, PREFACE.length + 9, HEADERS_OF_1000_BYTES.length);
        return start;
    }

    /** One byte per connection every 200 ms, for a bounded time; a connection the server closed is left alone. */
    private static void trickle(List<Socket> sockets) throws Exception {
        long end = System.nanoTime() + TRICKLE.toNanos();
        List<Socket> open = new ArrayList<>(sockets);
        while (System.nanoTime() < end && !open.isEmpty()) {
            open.removeIf(SlowlorisTest::failsToWriteAByte);
            Thread.sleep(200);
        }
    }

    private static boolean failsToWriteAByte(Socket socket) {
        try {
            socket.getOutputStream().write('a');
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** How many connections reach end of stream within a few idle timeouts; closes them all. */
    private static int closedByServer(List<Socket> sockets) throws IOException {
        long deadline = System.nanoTime() + IDLE.multipliedBy(5).toNanos();
        int closed = 0;
        for (Socket socket : sockets) {
            if (readsToEnd(socket, deadline)) {
                closed++;
            }
            socket.close();
        }
        return closed;
    }

    private static boolean readsToEnd(Socket socket, long deadline) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return false;
                }
                socket.setSoTimeout((int) left);
                if (in.read(buffer) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset by the server
        }
    }

}
