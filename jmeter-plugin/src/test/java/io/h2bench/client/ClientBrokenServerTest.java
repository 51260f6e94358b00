package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Servers that break the exchange on purpose (RST_STREAM, GOAWAY, a connection closed mid-body, a
 * TLS peer that never answers): each must end as an error result, quickly, with a clear message.
 */
class ClientBrokenServerTest {

    private static final Duration CONNECT = Duration.ofMillis(1_000);
    private static final Duration RESPONSE = Duration.ofMillis(3_000);

    private LoopbackTestServer server;
    private int port;
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        server = LoopbackTestServer.start(new BreakingHandler());
        port = server.port();
        user = UserConnections.open();
    }

    @AfterEach
    void stop() throws Exception {
        user.close();
        server.close();
    }

    private ExchangeResult get(String path, ProtocolMode mode) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + port + path);
        return user.send(ExchangeRequest.get(uri, mode).withTimeouts(CONNECT, RESPONSE));
    }

    @Test
    void shouldReportTheResetWhenTheServerResetsTheStream() throws Exception {
        ExchangeResult result = get("/reset", ProtocolMode.H2C);

        assertThat(result.failed()).isTrue();
        assertThat(result.failureMessage()).contains("reset the stream");
        assertThat(result.elapsedNanos()).isLessThan(RESPONSE.toNanos());
    }

    @Test
    void shouldReportTheGoAwayWhenTheServerClosesTheSession() throws Exception {
        ExchangeResult result = get("/goaway", ProtocolMode.H2C);

        assertThat(result.failed()).isTrue();
        assertThat(result.failureMessage()).contains("GOAWAY");
        assertThat(result.elapsedNanos()).isLessThan(RESPONSE.toNanos());
    }

    @Test
    void shouldFailAtTheResponseTimeoutWhenAnH2BodyStallsAfterItsHeaders() throws Exception {
        ExchangeResult result = get("/stall", ProtocolMode.H2C);

        assertThat(result.failed()).isTrue();
        assertThat(result.status()).isEqualTo(200);
        assertThat(result.bodyBytes()).isEqualTo(1_000);
        assertThat(result.failureMessage()).contains("within 3000 ms (response timeout");
        assertThat(result.elapsedNanos() / 1_000_000).isBetween(2_900L, 4_500L);
    }

    @Test
    void shouldReportAShortBodyWhenHttp11ClosesMidBody() throws Exception {
        ExchangeResult result = get("/reset", ProtocolMode.HTTP_1_1);

        assertThat(result.failed()).isTrue();
        assertThat(result.status()).isEqualTo(200);
        assertThat(result.failureMessage()).contains("before the response was complete");
        assertThat(result.elapsedNanos()).isLessThan(RESPONSE.toNanos());
    }

    @Test
    void shouldReportAShortBodyWhenARawServerClosesMidBody() throws Exception {
        ExchangeResult result = sendToRawPeer(ProtocolMode.HTTP_1_1, ClientBrokenServerTest::answerShortAndClose);

        assertThat(result.failed()).isTrue();
        assertThat(result.bodyBytes()).isEqualTo(10);
        assertThat(result.failureMessage()).contains("closed before the response was complete");
    }

    @Test
    void shouldNameTheHttp2ErrorCodeWhenTheServersHeaderBlockCannotBeDecoded() throws Exception {
        ExchangeResult result = sendToRawPeer(ProtocolMode.H2C, ClientBrokenServerTest::answerWithABrokenHeaderBlock);

        assertThat(result.failed()).isTrue();
        // As Jetty's HTTP2Session words it (and interop.md quotes it): the code, then why.
        assertThat(result.failureMessage()).containsPattern("[a-z]+_error/invalid_hpack_block");
    }

    @Test
    void shouldFailAtTheConnectTimeoutWhenTheTlsPeerNeverAnswers() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> acceptAndWait(silent, done), "silent-tls-peer");
            peer.start();
            URI uri = URI.create("https://127.0.0.1:" + silent.getLocalPort() + "/");
            ExchangeResult result = user.send(ExchangeRequest.get(uri, ProtocolMode.HTTP_2).withTimeouts(CONNECT, RESPONSE));
            done.countDown();

            assertThat(result.failed()).isTrue();
            assertThat(result.failureMessage()).contains("within 1000 ms (connect timeout)");
            assertThat(result.elapsedNanos() / 1_000_000).isBetween(900L, 2_500L);
        }
    }

    /** A request to a server on a plain socket that {@code answer} serves, in a thread of its own. */
    private ExchangeResult sendToRawPeer(ProtocolMode mode, Consumer<ServerSocket> answer) throws Exception {
        try (ServerSocket raw = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> answer.accept(raw), "raw-peer");
            peer.start();
            URI uri = URI.create("http://127.0.0.1:" + raw.getLocalPort() + "/");
            ExchangeResult result = user.send(ExchangeRequest.get(uri, mode).withTimeouts(CONNECT, RESPONSE));
            peer.join(5_000);
            return result;
        }
    }

    /** An empty SETTINGS, then stream 1's HEADERS holding only a reference to a dynamic table entry that does not exist. */
    private static void answerWithABrokenHeaderBlock(ServerSocket raw) {
        byte[] settings = {0, 0, 0, 0x4, 0, 0, 0, 0, 0};
        byte[] headers = {0, 0, 1, 0x1, 0x5, 0, 0, 0, 1, (byte) 0xBF};
        try (Socket socket = raw.accept()) {
            socket.getInputStream().read(new byte[4096]);
            OutputStream out = socket.getOutputStream();
            out.write(settings);
            out.write(headers);
            out.flush();
            while (socket.getInputStream().read(new byte[4096]) >= 0) {
                // until the client has said why and closed
            }
        } catch (IOException ignored) {
            // The client may already have gone; the test checks what it saw.
        }
    }

    private static void answerShortAndClose(ServerSocket raw) {
        try (Socket socket = raw.accept()) {
            socket.getInputStream().read(new byte[4096]);
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException ignored) {
            // The client may already have gone; the test checks what it saw.
        }
    }

    private static void acceptAndWait(ServerSocket silent, CountDownLatch done) {
        try (Socket socket = silent.accept()) {
            done.await();
        } catch (IOException | InterruptedException ignored) {
            // Closing is all this peer does.
        }
    }

    /** Sends part of a 100 kB body, then breaks the stream (/reset) or the whole session (/goaway). */
    private static final class BreakingHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 100_000);
            Runnable breakIt = switch (path) {
                case "/goaway" -> () -> goAway(request, callback);
                case "/stall" -> () -> { }; // headers and 1 kB sent, then silence
                default -> () -> callback.failed(new IOException("handler gave up mid-body"));
            };
            response.write(false, ByteBuffer.wrap(new byte[1_000]), Callback.from(breakIt, callback::failed));
            return true;
        }

        private static void goAway(Request request, Callback callback) {
            if (request.getConnectionMetaData().getConnection() instanceof HTTP2Connection h2) {
                // GOAWAY alone lets open streams linger until a timeout; a dying server also drops TCP.
                h2.getSession().close(ErrorCode.PROTOCOL_ERROR.code, "h2bench test GOAWAY",
                        Callback.from(() -> h2.getEndPoint().close()));
            } else {
                callback.failed(new IOException("not HTTP/2"));
            }
        }
    }
}
