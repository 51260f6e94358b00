package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.junit.jupiter.api.Test;

/**
 * Where the h3 listener runs a request's handler: a handler tree that blocks no thread on the QUIC
 * connection's event loop, as Jetty's own connections run it on the thread that read the request
 * (a pool thread woken after an idle gap took milliseconds of a reused connection's answer); any
 * other on Jetty's pool, never on the loop that reads every connection's datagrams.
 */
class Http3HandlerThreadTest {

    private static final long TIMEOUT_SECONDS = 10;
    private static final String EVENT_LOOP = "h2bench-h3";

    @Test
    void shouldRunANonBlockingHandlerOnTheEventLoopAndABlockingOneOnJettysPool() throws Exception {
        assertThat(threadThatHandled(new ThreadNamingHandler(InvocationType.NON_BLOCKING)))
                .as("thread of a NON_BLOCKING handler").startsWith(EVENT_LOOP);
        assertThat(threadThatHandled(new ThreadNamingHandler(InvocationType.BLOCKING)))
                .as("thread of a BLOCKING handler").doesNotStartWith(EVENT_LOOP);
    }

    private static String threadThatHandled(ThreadNamingHandler handler) throws Exception {
        try (H3ListenerAlone h3 = H3ListenerAlone.start(handler)) {
            RawH3Client.Exchange exchange = h3.connect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .request(RawH3Client.get(h3.uri("/thread")));
            assertThat(exchange.response().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("status").isEqualTo(200);
            return handler.thread.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Answers 200 with a short body, and says on which thread it did. */
    private static final class ThreadNamingHandler extends Handler.Abstract {

        private static final byte[] BODY = "handled\n".getBytes(StandardCharsets.US_ASCII);
        final CompletableFuture<String> thread = new CompletableFuture<>();

        ThreadNamingHandler(InvocationType type) {
            super(type);
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            thread.complete(Thread.currentThread().getName());
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, BODY.length);
            response.write(true, BufferUtil.toBuffer(BODY), callback);
            return true;
        }
    }
}
