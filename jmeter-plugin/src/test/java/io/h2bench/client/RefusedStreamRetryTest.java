package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.api.server.ServerSessionListener;
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
 * is sent once more. The server here (Jetty's raw HTTP/2 session API, h2c) refuses the first stream
 * of each request it is asked to refuse and answers the rest.
 */
class RefusedStreamRetryTest {

    private final AtomicInteger streams = new AtomicInteger();
    private Server server;
    private int port;
    private UserConnections user;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server,
                new RawHTTP2ServerConnectionFactory(new HttpConfiguration(), new RefusingFirstStreams(streams), "h2c"));
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
    void shouldSendTheRequestOnceMoreWhenTheServerRefusedItsStream() throws Exception {
        ExchangeResult result = user.send(request("/refused-once"));

        assertThat(result.failed()).as(result.failureMessage()).isFalse();
        assertThat(result.status()).isEqualTo(200);
        assertThat(result.retried()).contains("REFUSED_STREAM");
        assertThat(streams.get()).as("streams the server saw").isEqualTo(2);
    }

    @Test
    void shouldNotSendItAThirdTimeWhenTheSecondIsRefusedToo() throws Exception {
        ExchangeResult result = user.send(request("/refused-always"));

        assertThat(result.failed()).isTrue();
        assertThat(result.failureMessage()).contains("the second try");
        assertThat(streams.get()).isEqualTo(2);
    }

    private ExchangeRequest request(String path) {
        URI uri = URI.create("http://127.0.0.1:" + port + path);
        return ExchangeRequest.get(uri, ProtocolMode.H2C).withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(5));
    }

    /** Refuses /refused-always every time, /refused-once the first time only, and answers 200 otherwise. */
    private record RefusingFirstStreams(AtomicInteger streams) implements ServerSessionListener {
        @Override
        public Stream.Listener onNewStream(Stream stream, HeadersFrame frame) {
            int seen = streams.incrementAndGet();
            String path = ((MetaData.Request) frame.getMetaData()).getHttpURI().getPath();
            if (path.equals("/refused-always") || seen == 1) {
                stream.reset(new ResetFrame(stream.getId(), ErrorCode.REFUSED_STREAM_ERROR.code), Callback.NOOP);
            } else {
                MetaData.Response ok = new MetaData.Response(200, null, HttpVersion.HTTP_2, HttpFields.EMPTY);
                stream.headers(new HeadersFrame(stream.getId(), ok, null, true), Callback.NOOP);
            }
            return null;
        }
    }
}
