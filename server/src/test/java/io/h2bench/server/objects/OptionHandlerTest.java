package io.h2bench.server.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.http.HttpServletRequest;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /option}, the object issue 41's benchmark loads, reaches no servlet. Through the servlet
 * layer each request cost Jetty's servlet request and response wrappers, an async context and a
 * {@code WriteListener}'s dispatches, about half of the server's Java time per 100-byte response,
 * and over TLS a cold, overloaded server left connections whose read interest Jetty never applied
 * after such writes. The test objects' handler on a real Jetty connector; the servlet context counts
 * the requests it sees.
 */
class OptionHandlerTest {

    private final List<String> seenByServlets = new CopyOnWriteArrayList<>();
    /** The connector's idle timeout here: the delay below outlasts it, as a 35 s one outlasts the listeners' 30 s. */
    private static final long IDLE_MILLIS = 1_000;

    private Server server;
    private URI base;

    @BeforeEach
    void startServer() throws Exception {
        Handler objects = TestObjects.handler();
        ServletContextHandler servlets = ((Handler.Container) objects).getDescendant(ServletContextHandler.class);
        servlets.addEventListener(new ServletRequestListener() {
            @Override
            public void requestInitialized(ServletRequestEvent event) {
                seenByServlets.add(((HttpServletRequest) event.getServletRequest()).getRequestURI());
            }
        });
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(IDLE_MILLIS);
        server.addConnector(connector);
        server.setHandler(objects);
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    @AfterEach
    void stopServer() throws Exception {
        server.stop();
    }

    @Test
    void shouldAnswerOptionWithoutTheServletLayerWhenAskedInEveryWay() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        HttpResponse<byte[]> body = client.send(get("/option?size=44k"), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> delayed = client.send(get("/option?size=1k&delay=10"), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> posted = client.send(HttpRequest.newBuilder(base.resolve("/option?size=100"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[30_000])).build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<String> refused = client.send(get("/option?size=abc"), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> missing = client.send(get("/nothing-here"), HttpResponse.BodyHandlers.ofString());

        assertThat(seenByServlets).as("requests that reached a servlet").containsExactly("/nothing-here");
        assertThat(body.body()).hasSize(45_056);
        assertThat(delayed.body()).hasSize(1_024);
        assertThat(posted.headers().firstValue("X-Request-Body-Bytes")).hasValue("30000");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    /**
     * The delay may outlast the connector's idle timeout (server.md: up to 60 s; the listeners' idle
     * timeout is 30 s): nothing is read or written meanwhile, so nothing times out. (The servlet this
     * handler replaced answered any delay above 30 s with a 500 after 30 s, its async context's default
     * timeout, which a delay this short does not reach: this test passes on it too.)
     */
    @Test
    void shouldSendTheBodyWhenTheDelayOutlastsTheIdleTimeout() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        HttpResponse<byte[]> delayed = client.send(get("/option?size=10&delay=" + 2 * IDLE_MILLIS), HttpResponse.BodyHandlers.ofByteArray());

        assertThat(delayed.statusCode()).isEqualTo(200);
        assertThat(delayed.body()).hasSize(10);
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).build();
    }
}
