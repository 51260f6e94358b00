package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.h2bench.client.direct.CallerReads;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The user's thread reading its own HTTP/1.1 responses on a reused plain connection ({@link CallerReads}):
 * what must still hold when no selector watches the socket. A scripted raw server answers each request
 * as the test says, on one connection after another.
 */
class CallerReadsTest {

    private static final Duration CONNECT = Duration.ofMillis(2_000);
    private static final Duration LONG = Duration.ofSeconds(10);

    private ScriptedServer server;
    private UserConnections user;

    @BeforeEach
    void start() throws IOException {
        server = new ScriptedServer();
        user = UserConnections.open();
    }

    @AfterEach
    void stop() throws IOException {
        user.close();
        server.close();
    }

    private ExchangeResult get(Duration responseTimeout) throws InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + server.port() + "/");
        // One connection: the scripted server serves one at a time.
        return user.send(ExchangeRequest.get(uri, ProtocolMode.HTTP_1_1).withTimeouts(CONNECT, responseTimeout)
                .withMaxConnectionsPerOrigin(1));
    }

    @Test
    void shouldEndAtTheResponseTimeoutWhenTheServerNeverAnswersTheWaitingThread() {
        server.script(Step.ANSWER, Step.SILENT);

        ExchangeResult[] results = assertTimeoutPreemptively(LONG,
                () -> new ExchangeResult[] {get(LONG), get(Duration.ofMillis(500))});

        assertThat(results[0].failed()).isFalse();
        assertThat(results[1].failed()).isTrue();
        assertThat(results[1].failureMessage()).contains("within 500 ms (response timeout");
        assertThat(results[1].elapsedNanos() / 1_000_000).isBetween(450L, 3_000L);
    }

    @Test
    void shouldSendOnANewConnectionWhenTheServerClosedTheIdleOne() throws Exception {
        // The second exchange is read by the waiting thread, which leaves the connection idle; the server
        // then closes it. The third goes on a new connection: found closed before it is sent, or, if the
        // close is still on its way, sent again once it fails before any response byte.
        server.script(Step.ANSWER, Step.ANSWER_AND_CLOSE, Step.ANSWER);

        assertThat(get(LONG).failed()).isFalse();
        assertThat(get(LONG).failed()).isFalse();
        server.awaitClosed();
        ExchangeResult third = get(LONG);

        assertThat(third.failed()).as(third.failureMessage()).isFalse();
        assertThat(third.newConnection()).isTrue();
        assertThat(server.connections()).isEqualTo(2);
    }

    @Test
    void shouldSendAGetAgainWhenTheServerClosesTheKeptConnectionWithoutAnswering() throws Exception {
        server.script(Step.ANSWER, Step.CLOSE_UNANSWERED, Step.ANSWER);

        assertThat(get(LONG).failed()).isFalse();
        ExchangeResult second = get(LONG);

        assertThat(second.failed()).as(second.failureMessage()).isFalse();
        assertThat(second.retried()).contains("closed the kept-alive connection");
        assertThat(server.connections()).isEqualTo(2);
    }

    @Test
    void shouldNotSendAPostAgainWhenTheServerClosesTheKeptConnectionWithoutAnswering() throws Exception {
        server.script(Step.ANSWER, Step.CLOSE_UNANSWERED);
        assertThat(get(LONG).failed()).isFalse();

        URI uri = URI.create("http://127.0.0.1:" + server.port() + "/");
        ExchangeResult post = user.send(new ExchangeRequest("POST", uri, List.of(), null, ProtocolMode.HTTP_1_1,
                CONNECT, LONG, false, true, 1, false));

        assertThat(post.failed()).isTrue();
        assertThat(post.retried()).isNull();
        assertThat(post.failureMessage()).contains("closed");
    }

    @Test
    void shouldGiveTheResponseToTheSelectorWhenTheWaitingThreadIsInterrupted() throws Exception {
        server.script(Step.ANSWER, Step.ANSWER_LATE, Step.ANSWER);
        assertThat(get(LONG).failed()).isFalse();

        CompletableFuture<Throwable> interrupted = new CompletableFuture<>();
        Thread waiting = new Thread(() -> {
            try {
                get(LONG);
                interrupted.complete(null);
            } catch (Throwable expected) {
                interrupted.complete(expected);
            }
        }, "interrupted-user");
        waiting.start();
        server.awaitRequests(2);
        waiting.interrupt();
        assertThat(interrupted.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);

        // The late answer is read by Jetty's selector; the connection then carries the next request.
        ExchangeResult after = assertTimeoutPreemptively(LONG, () -> get(LONG));
        assertThat(after.failed()).as(after.failureMessage()).isFalse();
        assertThat(after.newConnection()).isFalse();
        assertThat(server.connections()).isEqualTo(1);
    }

    /** What the server does with one request. */
    private enum Step {
        ANSWER, SILENT, ANSWER_AND_CLOSE, CLOSE_UNANSWERED, ANSWER_LATE
    }

    /** Answers requests in the scripted order, whichever connection they come on; one connection at a time. */
    private static final class ScriptedServer implements AutoCloseable {

        private static final byte[] OK = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII);

        private final ServerSocket socket = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        private final BlockingQueue<Step> steps = new LinkedBlockingQueue<>();
        private final CountDownLatch closed = new CountDownLatch(1);
        private final Thread thread = new Thread(this::serve, "scripted-http11-server");
        private volatile int connections;
        private volatile int requests;

        ScriptedServer() throws IOException {
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        void script(Step... order) {
            steps.addAll(List.of(order));
        }

        int connections() {
            return connections;
        }

        void awaitClosed() throws InterruptedException {
            assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
        }

        void awaitRequests(int count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            synchronized (this) {
                while (requests < count && System.nanoTime() < deadline) {
                    wait(100);
                }
            }
            assertThat(requests).isGreaterThanOrEqualTo(count);
        }

        private void serve() {
            while (!socket.isClosed()) {
                try (Socket connection = socket.accept()) {
                    connections++;
                    serveConnection(connection);
                } catch (IOException | InterruptedException stopped) {
                    // The test closed the server, or the client the connection: take the next one.
                }
            }
        }

        private void serveConnection(Socket connection) throws IOException, InterruptedException {
            InputStream in = connection.getInputStream();
            OutputStream out = connection.getOutputStream();
            while (readRequest(in)) {
                synchronized (this) {
                    requests++;
                    notifyAll();
                }
                Step step = steps.take();
                switch (step) {
                    case ANSWER -> out.write(OK);
                    case SILENT -> {
                        in.transferTo(OutputStream.nullOutputStream()); // until the client gives up and closes
                        return;
                    }
                    case ANSWER_AND_CLOSE -> {
                        out.write(OK);
                        connection.close();
                        closed.countDown();
                        return;
                    }
                    case CLOSE_UNANSWERED -> {
                        connection.close();
                        return;
                    }
                    case ANSWER_LATE -> {
                        Thread.sleep(500);
                        out.write(OK);
                    }
                }
                out.flush();
            }
        }

        /** Reads one request's header block (the client sends no body here); false at the end of the connection. */
        private static boolean readRequest(InputStream in) throws IOException {
            int matched = 0;
            byte[] end = {'\r', '\n', '\r', '\n'};
            for (int next = in.read(); next >= 0; next = in.read()) {
                matched = next == end[matched] ? matched + 1 : next == '\r' ? 1 : 0;
                if (matched == end.length) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
