package io.h2bench.server.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.http.HttpServletRequest;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Seed 000's fixed objects reach no servlet, and the handler tree stays NON_BLOCKING although it holds
 * the servlet context (issue 42). Through the servlets each such request was handed to another thread
 * before anything ran (a tree holding a servlet context is BLOCKING), then went through the servlet
 * wrappers, a filter, an async context and a {@code WriteListener}'s dispatches; on a busy machine an
 * HTTP/2 connection's first response waited some 3 ms more than over HTTP/1.1. Real Jetty connectors,
 * the servlet context counting the requests it sees; and the servlet's answers, byte for byte, beside
 * the handler's.
 */
class StaticObjectHandlerTest {

    private static final List<String> FIXED = List.of("/", "/style.css", "/img1.jpeg", "/inline", "/small-text.txt", "/large-text.txt");

    private final List<String> seenByServlets = new CopyOnWriteArrayList<>();
    private final List<Server> servers = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopServers() throws Exception {
        for (Server server : servers) {
            server.stop();
        }
    }

    @Test
    void shouldAnswerFixedObjectsWithoutTheServletLayerWhenAskedWithGetHeadOrAValidator() throws Exception {
        int port = start(TestObjects.handler(), true);
        String etag = header(exchange(port, "GET", "/style.css", ""), "ETag");

        for (String path : FIXED) {
            assertThat(status(exchange(port, "GET", path, ""))).as("GET " + path).isEqualTo(200);
            assertThat(status(exchange(port, "HEAD", path, ""))).as("HEAD " + path).isEqualTo(200);
        }
        assertThat(status(exchange(port, "GET", "/style.css", "If-None-Match: " + etag + "\r\n"))).isEqualTo(304);
        assertThat(status(exchange(port, "GET", "/style.css", "Content-Length: 5\r\n", "hello"))).isEqualTo(200);
        assertThat(status(exchange(port, "POST", "/style.css", "Content-Length: 0\r\n"))).isEqualTo(405);
        assertThat(status(exchange(port, "GET", "/nothing-here", ""))).isEqualTo(404);

        assertThat(seenByServlets).as("requests that reached a servlet").containsExactly("/style.css", "/nothing-here");
    }

    @Test
    void shouldKeepTheServerNonBlockingWhenTheTreeHoldsServlets() throws Exception {
        start(TestObjects.handler(), false);

        assertThat(servers.get(0).getInvocationType()).isEqualTo(Invocable.InvocationType.NON_BLOCKING);
    }

    /** The servlet alone, as every fixed object was served before, and the handler answer alike but for the Date. */
    @Test
    void shouldSendTheServletsBytesWhenAnyFixedObjectIsAsked() throws Exception {
        SeedPage page = SeedPage.get();
        ServletContextHandler servletOnly = new ServletContextHandler("/");
        ServletHolder holder = new ServletHolder("objects", new StaticObjectServlet(page.objects()));
        holder.setAsyncSupported(true);
        servletOnly.addServlet(holder, "/");
        BodyFirstFilter.install(servletOnly);
        int before = start(servletOnly, false);
        int after = start(TestObjects.handler(), false);
        String etag = header(exchange(before, "GET", "/", ""), "ETag");

        for (String path : FIXED) {
            for (String method : List.of("GET", "HEAD")) {
                assertThat(withoutDate(exchange(after, method, path, ""))).as(method + " " + path)
                        .isEqualTo(withoutDate(exchange(before, method, path, "")));
            }
        }
        for (String validator : List.of(etag, "\"other\"", "\"x\", W/" + etag, "*")) {
            String header = "If-None-Match: " + validator + "\r\n";
            assertThat(withoutDate(exchange(after, "GET", "/", header))).as(validator)
                    .isEqualTo(withoutDate(exchange(before, "GET", "/", header)));
        }
    }

    private int start(Handler handler, boolean countServletRequests) throws Exception {
        if (countServletRequests) {
            ((Handler.Container) handler).getDescendant(ServletContextHandler.class).addEventListener(new ServletRequestListener() {
                @Override
                public void requestInitialized(ServletRequestEvent event) {
                    seenByServlets.add(((HttpServletRequest) event.getServletRequest()).getRequestURI());
                }
            });
        }
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(handler);
        servers.add(server);
        server.start();
        return connector.getLocalPort();
    }

    /** One request on a new HTTP/1.1 connection, {@code Connection: close}: the response's bytes as they came. */
    private static byte[] exchange(int port, String method, String path, String headers, String... body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            String request = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + headers + "\r\n"
                    + String.join("", body);
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            in.transferTo(response);
            return response.toByteArray();
        }
    }

    private static String head(byte[] response) {
        String text = new String(response, StandardCharsets.ISO_8859_1);
        return text.substring(0, text.indexOf("\r\n\r\n"));
    }

    private static int status(byte[] response) {
        return Integer.parseInt(head(response).split(" ")[1]);
    }

    private static String header(byte[] response, String name) {
        for (String line : head(response).split("\r\n")) {
            if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + head(response));
    }

    private static String withoutDate(byte[] response) {
        return new String(response, StandardCharsets.ISO_8859_1).replaceFirst("\r\nDate: [^\r]*", "");
    }
}
