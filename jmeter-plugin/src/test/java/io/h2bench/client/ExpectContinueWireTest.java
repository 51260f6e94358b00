package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.direct.ContinueWait;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.ConnectionProfile;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * What a server sees of a request that expects a 100 Continue ({@link ContinueWait}): on h2c, the
 * frames in the order Jetty's server received and sent them; on HTTP/1.1, when the body's bytes
 * arrive at a server that never answers the expectation.
 */
class ExpectContinueWireTest {

    private static final byte[] BODY = "expected body".getBytes(StandardCharsets.UTF_8);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void shouldSendTheDataOnlyAfterThe100WhenAnHttp2ServerAnswersIt() throws Exception {
        List<String> frames = h2cFrames("/read", 200);

        assertThat(frames).containsSubsequence("in HEADERS open", "out HEADERS 100", "in DATA");
        assertThat(frames.indexOf("out HEADERS 100")).isLessThan(frames.indexOf("in DATA"));
    }

    @Test
    void shouldSendNoDataWhenAnHttp2ServerAnswersBeforeTheBody() throws Exception {
        List<String> frames = h2cFrames("/refuse", 417);

        assertThat(frames).contains("in HEADERS open", "out HEADERS 417").doesNotContain("in DATA", "out HEADERS 100");
    }

    @Test
    void shouldSendTheBodyAfterTheWaitWhenAnHttp11ServerNeverAnswersTheExpectation() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Long> bodyAfterMillis = CompletableFuture.supplyAsync(() -> silentServer(listener));
            ExchangeResult result = send(URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/"), ProtocolMode.HTTP_1_1);

            assertThat(result.failureMessage()).isNull();
            assertThat(result.status()).isEqualTo(200);
            assertThat(result.engine()).isEqualTo("h1-own");
            assertThat(bodyAfterMillis.get(10, TimeUnit.SECONDS)).isBetween(ContinueWait.WAIT_MILLIS - 100, ContinueWait.WAIT_MILLIS + 1_000);
        }
    }

    /** The frames of one exchange with a Jetty h2c server, which answered {@code status}, once the server stopped. */
    private static List<String> h2cFrames(String path, int status) throws Exception {
        List<String> frames = new ArrayList<>();
        try (JettyH2c server = new JettyH2c(frames)) {
            ExchangeResult result = send(server.uri(path), ProtocolMode.H2C);

            assertThat(result.failureMessage()).isNull();
            assertThat(result.status()).isEqualTo(status);
            assertThat(result.engine()).isEqualTo("h2-own");
        }
        synchronized (frames) {
            return List.copyOf(frames);
        }
    }

    private static ExchangeResult send(URI uri, ProtocolMode mode) throws InterruptedException {
        try (UserConnections user = UserConnections.open()) {
            ExchangeRequest request = new ExchangeRequest("POST", uri, List.of(new HeaderField("Expect", "100-continue")), BODY, mode,
                    TIMEOUT, TIMEOUT, false, false, 1, false);
            return user.send(request, ConnectionProfile.DIRECT);
        }
    }

    /** Reads one request's header block, then its body, and answers 200: the ms between the two. */
    private static long silentServer(ServerSocket listener) {
        try (Socket socket = listener.accept()) {
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                head.write(in.read());
            }
            long headers = System.nanoTime();
            byte[] body = in.readNBytes(BODY.length);
            long after = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - headers);
            assertThat(body).isEqualTo(BODY);
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return after;
        } catch (Exception failure) {
            throw new IllegalStateException(failure);
        }
    }

    /** A Jetty h2c server noting each frame it receives and sends; /read reads the body, /refuse answers 417 first. */
    private static final class JettyH2c implements AutoCloseable {

        private final Server server = new Server();
        private final ServerConnector connector;

        JettyH2c(List<String> frames) throws Exception {
            HttpConfiguration config = new HttpConfiguration();
            HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(config);
            h2c.addEventListener(new HTTP2Session.FrameListener() {
                @Override
                public void onIncomingFrame(Session session, Frame frame) {
                    note(frames, "in", frame);
                }

                @Override
                public void onOutgoingFrame(Session session, Frame frame) {
                    note(frames, "out", frame);
                }
            });
            connector = new ServerConnector(server, new HttpConnectionFactory(config), h2c);
            connector.setHost("127.0.0.1");
            server.addConnector(connector);
            server.setHandler(new Handler.Abstract() {
                @Override
                public boolean handle(Request request, Response response, Callback callback) throws Exception {
                    if (Request.getPathInContext(request).equals("/refuse")) {
                        Response.writeError(request, response, callback, 417);
                    } else {
                        Content.Source.asByteBuffer(request);
                        response.write(true, ByteBuffer.allocate(0), callback);
                    }
                    return true;
                }
            });
            server.start();
        }

        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + connector.getLocalPort() + path);
        }

        private static void note(List<String> frames, String direction, Frame frame) {
            String text = null;
            if (frame instanceof HeadersFrame headers) {
                text = headers.getMetaData() instanceof MetaData.Response response ? "HEADERS " + response.getStatus()
                        : headers.getMetaData() instanceof MetaData.Request ? "HEADERS " + (headers.isEndStream() ? "ended" : "open") : null;
            } else if (frame instanceof DataFrame) {
                text = "DATA";
            }
            if (text != null) {
                synchronized (frames) {
                    frames.add(direction + " " + text);
                }
            }
        }

        @Override
        public void close() throws Exception {
            server.stop();
        }
    }
}
