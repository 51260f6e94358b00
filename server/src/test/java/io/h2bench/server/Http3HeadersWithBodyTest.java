package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38: a response's HEADERS leave in the packet of its first body bytes, as from ngtcp2's
 * server, not in a datagram of their own (the benchmarks page's 44 kB round trip: one more short
 * datagram a response, which at a fixed loss pattern moves which data is lost). Seen in ngtcp2's
 * client log as the STREAM frames of each response: quiche puts a stream's bytes that are ready
 * together in one frame. HEADERS whose body is not ready must still leave at once.
 */
class Http3HeadersWithBodyTest {

    private static final long TIMEOUT_SECONDS = 10;
    /** More than a HEADERS frame of the option object (74 bytes) and less than a packet's share of its body. */
    private static final int MORE_THAN_HEADERS = 1000;

    private static H2BenchServer server;

    @BeforeAll
    static void start() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral().withH3Port(Http3Listener.ON_H2_PORT));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void shouldSendA100BResponseInOneStreamFrameWhenItsBodyIsReadyWithItsHeaders(@TempDir Path downloads) throws Exception {
        List<Integer> frames = streamFrameLengths(downloads, "option?size=100", 100);
        assertThat(frames).as("lengths of the response's STREAM frames (gtlsserver: one, HEADERS, body and FIN)").hasSize(1);
    }

    @Test
    void shouldSendA44kResponsesHeadersWithItsFirstBodyBytesWhenTheBodyIsReady(@TempDir Path downloads) throws Exception {
        List<Integer> frames = streamFrameLengths(downloads, "option?size=44k", 45_056);
        assertThat(frames.get(0)).as("the first of the response's STREAM frames: %s", frames).isGreaterThan(MORE_THAN_HEADERS);
    }

    /** Fetches {@code /object} with gtlsclient on a connection of its own: the lengths of its response's STREAM frames. */
    private static List<Integer> streamFrameLengths(Path downloads, String object, int size) throws Exception {
        Ngtcp2Client.assumeInstalled();
        Ngtcp2Client h3 = Ngtcp2Client.fetch("127.0.0.1", server.h3Port(), downloads, "/" + object);
        assertThat(h3.status(0)).as(h3::log).isEqualTo(200);
        assertThat(h3.body(object)).hasSize(size);
        return h3.streamFrameLengths(0);
    }

    @Test
    void shouldSendHeadersAtOnceWhenTheBodyIsNotReady() throws Exception {
        CompletableFuture<Void> bodyReady = new CompletableFuture<>();
        try (H3ListenerAlone h3 = H3ListenerAlone.start(new HeadersThenBodyHandler(bodyReady))) {
            URI uri = h3.uri("/later");
            RawH3Client.Exchange exchange = h3.connect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).request(RawH3Client.get(uri));

            // The body waits for the client to have the head: a head held for a body would never come.
            assertThat(exchange.head().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("status before the body").isEqualTo(200);
            bodyReady.complete(null);
            assertThat(exchange.response().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(200);
            assertThat(exchange.bodyBytes()).isEqualTo(HeadersThenBodyHandler.BODY.length);
        }
    }

    /** Commits its head at once (a streaming body's start), then writes its body when told. */
    private static final class HeadersThenBodyHandler extends Handler.Abstract {

        static final byte[] BODY = "a body that was not ready with its head\n".getBytes(StandardCharsets.US_ASCII);
        private final CompletableFuture<Void> bodyReady;

        HeadersThenBodyHandler(CompletableFuture<Void> bodyReady) {
            this.bodyReady = bodyReady;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, BODY.length);
            response.write(false, BufferUtil.EMPTY_BUFFER, Callback.from(
                    () -> bodyReady.thenRun(() -> response.write(true, BufferUtil.toBuffer(BODY), callback)), callback::failed));
            return true;
        }
    }
}
