package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.h2.Http2FrameConnection;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sampler's own h2c connection ({@link Http2FrameConnection}) against a Jetty server with small
 * limits: its windows are RFC 9113's initial 65,535 bytes and it allows two streams at once, so that
 * a large request body must wait for the server's WINDOW_UPDATEs and a burst of requests for free
 * stream slots, in order, on the one connection.
 */
class OwnHttp2ConnectionTest {

    private static final int MAX_STREAMS = 2;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private Server server;
    private int port;
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger mostConcurrent = new AtomicInteger();
    private final CountDownLatch bothHeld = new CountDownLatch(MAX_STREAMS);
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(new HttpConfiguration());
        h2c.setMaxConcurrentStreams(MAX_STREAMS);
        h2c.setInitialStreamRecvWindow(65_535);
        h2c.setInitialSessionRecvWindow(65_535);
        ServerConnector connector = new ServerConnector(server, h2c);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new DigestHandler());
        server.start();
        port = connector.getLocalPort();
        user = UserConnections.open();
    }

    @AfterEach
    void stop() throws Exception {
        user.close();
        server.stop();
    }

    @Test
    void shouldSendTheWholeBodyWhenItIsLargerThanTheServersWindows() throws Exception {
        byte[] body = new byte[3 * 1024 * 1024 + 17];
        new Random(20).nextBytes(body);
        ExchangeRequest post = new ExchangeRequest("POST", uri("/digest"), List.of(), body, ProtocolMode.H2C,
                TIMEOUT, TIMEOUT, false, false, 1, false);

        ExchangeResult result = user.send(post);

        assertThat(result.failureMessage()).isNull();
        assertThat(new String(result.body(), StandardCharsets.US_ASCII)).isEqualTo(body.length + " " + sha256(body));
        assertThat(result.sentBytes()).isGreaterThan(body.length);
    }

    @Test
    void shouldKeepRequestsWaitingInOrderWhenTheServerAllowsFewerStreamsThanAreSent() throws Exception {
        ExchangeResult first = user.send(get("/digest"));
        assertThat(first.failureMessage()).isNull();

        List<CompletableFuture<ExchangeResult>> burst = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            burst.add(user.sendAsync(get("/digest?held")));
        }
        for (CompletableFuture<ExchangeResult> each : burst) {
            ExchangeResult result = each.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(result.failureMessage()).isNull();
            assertThat(result.retried()).isNull();
            assertThat(result.connectionId()).isEqualTo(first.connectionId());
        }
        assertThat(mostConcurrent.get()).as("streams the server handled at once").isEqualTo(MAX_STREAMS);
    }

    private ExchangeRequest get(String target) {
        return ExchangeRequest.get(uri(target), ProtocolMode.H2C).withTimeouts(TIMEOUT, TIMEOUT);
    }

    private URI uri(String target) {
        return URI.create("http://127.0.0.1:" + port + target);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** Answers with the request body's length and SHA-256; "?held" holds the stream until the server holds its limit's worth. */
    private final class DigestHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            int now = concurrent.incrementAndGet();
            mostConcurrent.accumulateAndGet(now, Math::max);
            try {
                byte[] body = Content.Source.asInputStream(request).readAllBytes();
                if ("held".equals(request.getHttpURI().getQuery())) {
                    // The first streams of the burst wait for each other: the server holds as many as it allows.
                    bothHeld.countDown();
                    bothHeld.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                }
                String answer = body.length + " " + sha256(body);
                concurrent.decrementAndGet();
                response.write(true, ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)), callback);
            } catch (Exception failure) {
                concurrent.decrementAndGet();
                callback.failed(failure);
            }
            return true;
        }
    }
}
