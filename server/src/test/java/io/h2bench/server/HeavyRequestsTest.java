package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

/**
 * Requests at the caps: the test objects' (many at once or in a loop) and the request head's. The
 * server must stay responsive.
 * The 500 unread downloads of 64 MiB meet server send buffers capped at 64 KiB: left to autotuning
 * each grew to 4 MiB, 1.7 GB in all, past the kernel's TCP memory pressure threshold, which shrinks
 * every socket's buffers on the machine and slowed other tests' downloads. A blocking write holds its
 * thread as soon as its buffer is full, whatever its size, so the test still fails for one (checked).
 */
class HeavyRequestsTest extends AbuseTestBase {

    private static final int OPTION_CLIENTS = 500;
    /** Of the option test's server sockets: 500 of them stay far below TCP memory pressure. */
    private static final int SEND_BUFFER = 64 * 1024;
    private static final int ARTICLE_CLIENTS = 4;
    private static final int ARTICLE_LOOPS = 3;

    @Test
    void shouldServeOthersWhenFiveHundredClientsAskOptionForItsLargestBodyAndStopReading() throws Exception {
        server.connector(Listener.H1).setAcceptedSendBufferSize(SEND_BUFFER);
        List<String> statusLines = bystanders.survive(Listener.H1, (inPlace, measured) -> {
            List<Socket> clients = new ArrayList<>();
            List<String> lines = new ArrayList<>();
            try {
                for (int i = 0; i < OPTION_CLIENTS; i++) {
                    Socket socket = new Socket("127.0.0.1", server.port(Listener.H1));
                    socket.getOutputStream().write("GET /option?size=64m HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    clients.add(socket);
                }
                for (Socket socket : clients) {
                    lines.add(statusLine(socket));
                }
                inPlace.countDown();
                measured.await(); // the clients hold the server's writes until the bystanders are done
            } finally {
                for (Socket socket : clients) {
                    socket.close();
                }
            }
            return lines;
        });

        assertThat(statusLines).hasSize(OPTION_CLIENTS).allMatch(line -> line.startsWith("HTTP/1.1 200"));
    }

    @Test
    void shouldServeOthersWhileTenThousandArticlesWithEmbeddedItemsAreAskedInALoop() throws Exception {
        List<Integer> statuses = bystanders.survive(Listener.H2, () -> {
            ExecutorService clients = Executors.newFixedThreadPool(ARTICLE_CLIENTS);
            try {
                List<Future<List<Integer>>> loops = new ArrayList<>();
                for (int i = 0; i < ARTICLE_CLIENTS; i++) {
                    loops.add(clients.submit(HeavyRequestsTest::articlesLoop));
                }
                List<Integer> all = new ArrayList<>();
                for (Future<List<Integer>> loop : loops) {
                    all.addAll(loop.get());
                }
                return all;
            } finally {
                clients.shutdownNow();
            }
        });

        assertThat(statuses).hasSize(ARTICLE_CLIENTS * ARTICLE_LOOPS).containsOnly(200);
    }

    @Test
    void shouldAnswer431WhenAnHttp11RequestHeadExceedsTheCap() throws Exception {
        String statusLine = bystanders.survive(Listener.H1, () -> {
            try (Socket socket = new Socket("127.0.0.1", server.port(Listener.H1))) {
                String big = "a".repeat(Connectors.REQUEST_HEADER_SIZE);
                socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + big + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                return statusLine(socket);
            }
        });

        assertThat(statusLine).startsWith("HTTP/1.1 431");
    }

    private static List<Integer> articlesLoop() throws Exception {
        HttpClient client = TestClients.jdk(HttpClient.Version.HTTP_2);
        URI uri = URI.create(server.baseUri(Listener.H2) + "/articles?count=10000&embed=item");
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < ARTICLE_LOOPS; i++) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                body.transferTo(java.io.OutputStream.nullOutputStream());
            }
            statuses.add(response.statusCode());
        }
        return statuses;
    }

    private static String statusLine(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString();
    }
}
