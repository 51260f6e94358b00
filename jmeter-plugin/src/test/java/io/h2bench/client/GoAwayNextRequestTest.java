package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.h2.Http2FrameConnection;
import io.h2bench.client.profile.ConnectionProfile;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 14: a server ends the connection with GOAWAY while a user's streams are in flight; every
 * request of that user afterwards must go out on a new connection and succeed. Seen in seed 004:
 * after GOAWAY(ENHANCE_YOUR_CALM) the next loads failed with "IOException: no_error/stop", the
 * failure of a stopped HTTP/2 session.
 */
class GoAwayNextRequestTest {

    private static final Duration CONNECT = Duration.ofMillis(2_000);
    private static final Duration RESPONSE = Duration.ofMillis(5_000);
    private static final int IN_FLIGHT = 8;

    private LoopbackTestServer server;
    private int port;
    private UserConnections user;
    private GoAwayHandler handler;
    private final ConnectionProfile profile = ConnectionProfile.DIRECT;
    private ProtocolMode mode = ProtocolMode.H2C;

    @BeforeEach
    void start() throws Exception {
        handler = new GoAwayHandler();
        server = LoopbackTestServer.start(handler);
        port = server.port();
        user = UserConnections.open();
    }

    @AfterEach
    void stop() throws Exception {
        user.close();
        server.close();
    }

    @Test
    void shouldSendTheNextRequestsOnANewConnectionWhenTheServerFailedTheSession() throws Exception {
        assertNextRequestsSucceedAfter("/fail");
    }

    @Test
    void shouldSendTheNextRequestsOnANewConnectionWhenTheServerClosedTheSessionGracefully() throws Exception {
        assertNextRequestsSucceedAfter("/close");
    }

    @Test
    void shouldSendTheNextRequestsOnANewConnectionWhenTheServerClosedTheConnection() throws Exception {
        assertNextRequestsSucceedAfter("/drop");
    }

    @Test
    void shouldSendTheNextRequestsOnANewConnectionWhenTheServerResetTheConnection() throws Exception {
        assertNextRequestsSucceedAfter("/reset");
    }

    /**
     * Seed 004's case, made deterministic, on a connection that began as HTTP/1.1: the server upgraded
     * it to h2c (RFC 7540 3.2), the sampler's own HTTP/2 went on on its socket, and it closes under the
     * streams in flight. The first to fail sends the next request at once, which must ask for the
     * upgrade again on a new connection rather than find the closing one. (Until 29 November 2026 an
     * upgraded connection was Jetty's {@code HTTP2Session}, stopped here as Jetty stops it; such
     * sessions now carry only what Jetty's {@code HttpClient} sends through a proxy.)
     */
    @Test
    void shouldSendTheNextRequestOnANewConnectionWhenTheUpgradedConnectionClosesUnderIt() throws Exception {
        mode = ProtocolMode.H2C_UPGRADE;
        assertNextOnNewConnectionWhenEnded(connections -> {
            assertThat(connections.ownHttp2).hasSize(1);
            connections.ownHttp2.get(0).close();
        });
    }

    /**
     * The same on the sampler's own HTTP/2 connection ({@link Http2FrameConnection}): it closes under
     * the streams in flight, the first to fail sends the next request at once, and that request must
     * not find the closing connection still pooled.
     */
    @Test
    void shouldSendTheNextRequestOnANewConnectionWhenTheConnectionClosesUnderIt() throws Exception {
        assertNextOnNewConnectionWhenEnded(connections -> {
            assertThat(connections.ownHttp2).hasSize(1);
            connections.ownHttp2.get(0).close();
        });
    }

    /** {@code end} ends the user's connection while slow requests are in flight; the first to fail sends the next. */
    private void assertNextOnNewConnectionWhenEnded(Ending end) throws Exception {
        SharedClient shared = SharedClient.acquire();
        ConnectionCatcher connections = new ConnectionCatcher();
        // OriginConnector gives the client's connection listeners to every connection it makes, the h2c Upgrade's too.
        shared.connectionListeners().addBean(connections);
        try {
            ExchangeResult first = get("/ok");
            List<CompletableFuture<ExchangeResult>> slow = slowRequests();
            CompletableFuture<ExchangeResult> next = slow.get(0).thenCompose(failed -> user.sendAsync(request("/ok"), profile));
            handler.awaitSlow();

            end.endUnder(connections);

            assertThat(slow.get(0).get(10, TimeUnit.SECONDS).failed()).isTrue();
            ExchangeResult result = next.get(10, TimeUnit.SECONDS);
            assertThat(result.failed()).as(result.failureMessage()).isFalse();
            assertThat(result.connectionId()).isNotEqualTo(first.connectionId());
        } finally {
            shared.connectionListeners().removeBean(connections);
            shared.release();
        }
    }

    private void assertNextRequestsSucceedAfter(String goAwayPath) throws Exception {
        ExchangeResult first = get("/ok");
        assertThat(first.failed()).as(first.failureMessage()).isFalse();

        List<CompletableFuture<ExchangeResult>> slow = slowRequests();
        ExchangeResult goAway = get(goAwayPath);
        for (CompletableFuture<ExchangeResult> each : slow) {
            ExchangeResult result = each.get(10, TimeUnit.SECONDS);
            assertThat(result.connectionId()).isEqualTo(first.connectionId());
        }
        assertThat(goAway.connectionId()).isEqualTo(first.connectionId());
        // "After the GOAWAY" as the wire has it: the server closed the connection behind it. A request
        // sent between the server's resets of the streams and the GOAWAY behind them still goes out on
        // the old connection (RFC 9113 6.8); no one on the client may have read the GOAWAY yet either
        // (an idle h2c connection is read by its next sender), which must then find it.
        assertThat(server.awaitNoOpenConnection(Duration.ofSeconds(5))).as("the server closed the connection").isTrue();

        List<String> failures = new ArrayList<>();
        for (int next = 1; next <= 5; next++) {
            ExchangeResult result = get("/ok");
            if (result.failed() || result.connectionId() == first.connectionId()) {
                failures.add("request " + next + " on connection " + result.connectionId() + ": " + result.failureMessage());
            }
        }
        assertThat(failures).isEmpty();
    }

    private List<CompletableFuture<ExchangeResult>> slowRequests() {
        List<CompletableFuture<ExchangeResult>> slow = new ArrayList<>();
        for (int i = 0; i < IN_FLIGHT; i++) {
            slow.add(user.sendAsync(request("/slow"), profile));
        }
        return slow;
    }

    private ExchangeResult get(String path) throws Exception {
        return user.send(request(path), profile);
    }

    private ExchangeRequest request(String path) {
        URI uri = URI.create("http://127.0.0.1:" + port + path);
        return ExchangeRequest.get(uri, mode).withTimeouts(CONNECT, RESPONSE);
    }

    /**
     * /slow answers once the GOAWAY was sent; /fail ends the session as Jetty's rate control does
     * (GOAWAY with an error code, then TCP closed); /close sends GOAWAY(NO_ERROR), letting the
     * streams already open finish; /drop closes and /reset resets the TCP connection without a GOAWAY;
     * /ok answers at once.
     */
    private static final class GoAwayHandler extends Handler.Abstract {

        private final CountDownLatch slowArrived = new CountDownLatch(IN_FLIGHT);
        private final CompletableFuture<Void> goAwaySent = new CompletableFuture<>();

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String path = Request.getPathInContext(request);
            HTTP2Session session = ((HTTP2Connection) request.getConnectionMetaData().getConnection()).getSession();
            switch (path) {
                case "/slow" -> {
                    slowArrived.countDown();
                    goAwaySent.thenRun(() -> answer(response, callback));
                }
                case "/fail" -> {
                    awaitSlow();
                    session.onConnectionFailure(ErrorCode.ENHANCE_YOUR_CALM_ERROR.code, "h2bench test");
                    goAwaySent.complete(null);
                }
                case "/drop", "/reset" -> {
                    awaitSlow();
                    // A killed server: no GOAWAY, the TCP connection closed (FIN) or reset (RST).
                    EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
                    if (path.equals("/reset")) {
                        ((SocketChannel) endPoint.getTransport()).setOption(StandardSocketOptions.SO_LINGER, 0);
                    }
                    endPoint.close();
                    goAwaySent.complete(null);
                }
                case "/close" -> {
                    awaitSlow();
                    session.close(ErrorCode.NO_ERROR.code, "h2bench test", Callback.NOOP);
                    goAwaySent.complete(null);
                    answer(response, callback);
                }
                default -> answer(response, callback);
            }
            return true;
        }

        void awaitSlow() throws InterruptedException {
            if (!slowArrived.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the slow requests did not arrive");
            }
        }

        private static void answer(Response response, Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            response.write(true, ByteBuffer.wrap(new byte[1_000]), callback);
        }
    }

    /** How a test ends the user's connection under its streams. */
    private interface Ending {
        void endUnder(ConnectionCatcher connections) throws Exception;
    }

    /** The client's own HTTP/2 connections, as they open. */
    private static final class ConnectionCatcher implements Connection.Listener {

        final List<Http2FrameConnection> ownHttp2 = new CopyOnWriteArrayList<>();

        @Override
        public void onOpened(Connection connection) {
            if (connection instanceof Http2FrameConnection own) {
                ownHttp2.add(own);
            }
        }
    }
}
