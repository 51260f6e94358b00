package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.api.server.ServerSessionListener;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.server.RawHTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RFC 9113 8.7: a stream the server resets with REFUSED_STREAM was not processed, so the request
 * is sent once more, on a new connection, which then replaces the user's. The server here (Jetty's
 * raw HTTP/2 session API, h2c) refuses the first stream of each request it is asked to refuse,
 * answers the rest, and records the connection (its session) of every stream and which ended.
 */
class RefusedStreamRetryTest {

    private final Connections connections = new Connections();
    private Server server;
    private int port;
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server,
                new RawHTTP2ServerConnectionFactory(new HttpConfiguration(), new RefusingFirstStreams(connections), "h2c"));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
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
    void shouldSendTheRequestOnceMoreOnANewConnectionWhenTheServerRefusedItsStream() throws Exception {
        ExchangeResult result = user.send(request("/refused-once"));

        assertThat(result.failed()).as(result.failureMessage()).isFalse();
        assertThat(result.status()).isEqualTo(200);
        assertThat(result.retried()).contains("REFUSED_STREAM").contains("new connection");
        assertThat(connections.ofStreams()).as("the connection of each stream the server saw").hasSize(2).doesNotHaveDuplicates();
    }

    @Test
    void shouldReplaceTheUsersConnectionWhenTheServerRefusedAStreamOnIt() throws Exception {
        assertThat(user.send(request("/refused-once")).retried()).isNotNull();

        ExchangeResult next = user.send(request("/next"));

        assertThat(next.failed()).as(next.failureMessage()).isFalse();
        List<Session> used = connections.ofStreams();
        assertThat(used).as("the refused try's connection, the retry's, the next request's").hasSize(3);
        assertThat(used.get(2)).as("the next request's connection").isSameAs(used.get(1));
        assertThat(connections.awaitEnded(used.get(0))).as("the refused try's connection ended").isTrue();
        assertThat(connections.ended()).as("connections ended").containsExactly(used.get(0));
    }

    @Test
    void shouldNotSendItAThirdTimeWhenTheSecondIsRefusedToo() throws Exception {
        ExchangeResult result = user.send(request("/refused-always"));

        assertThat(result.failed()).isTrue();
        assertThat(result.failureMessage()).contains("the second try");
        assertThat(connections.ofStreams()).hasSize(2).doesNotHaveDuplicates();
    }

    private ExchangeRequest request(String path) {
        URI uri = URI.create("http://127.0.0.1:" + port + path);
        return ExchangeRequest.get(uri, ProtocolMode.H2C).withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(5));
    }

    /** What the server saw: the session of every stream, in order, and the sessions that ended. */
    private static final class Connections {

        private final List<Session> ofStreams = new CopyOnWriteArrayList<>();
        private final Set<Session> ended = ConcurrentHashMap.newKeySet();

        List<Session> ofStreams() {
            return List.copyOf(ofStreams);
        }

        Set<Session> ended() {
            return Set.copyOf(ended);
        }

        /** Polls until {@code session} ended, for at most 5 s (it ends at once: its only stream is done). */
        boolean awaitEnded(Session session) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!ended.contains(session) && System.nanoTime() < deadline) {
                Thread.sleep(10); // polling, not a timing assertion
            }
            return ended.contains(session);
        }
    }

    /** Refuses /refused-always every time, /refused-once the first time only, and answers 200 otherwise. */
    private record RefusingFirstStreams(Connections connections) implements ServerSessionListener {
        @Override
        public Stream.Listener onNewStream(Stream stream, HeadersFrame frame) {
            connections.ofStreams.add(stream.getSession());
            String path = ((MetaData.Request) frame.getMetaData()).getHttpURI().getPath();
            if (path.equals("/refused-always") || connections.ofStreams.size() == 1) {
                stream.reset(new ResetFrame(stream.getId(), ErrorCode.REFUSED_STREAM_ERROR.code), Callback.NOOP);
            } else {
                MetaData.Response ok = new MetaData.Response(200, null, HttpVersion.HTTP_2, HttpFields.EMPTY);
                stream.headers(new HeadersFrame(stream.getId(), ok, null, true), Callback.NOOP);
            }
            return null;
        }

        @Override
        public void onClose(Session session, GoAwayFrame frame, Callback callback) {
            connections.ended.add(session);
            callback.succeeded();
        }
    }
}
