package io.h2bench.server.objects;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.util.MultiMap;
import org.eclipse.jetty.util.UrlEncoded;

/**
 * Seed 003's dynamic object, {@code /option?size=S&delay=D}: a body of S bytes sent after D ms.
 * Neither the wait nor the body holds a request thread (an async context, one timer thread for all
 * requests, non-blocking writes).
 * Any method is accepted; a request body is read and its length echoed in
 * {@code X-Request-Body-Bytes}, so POST, PUT and PATCH can be measured against it too.
 */
public class OptionServlet extends HttpServlet {

    /** 64 KiB of text lines, repeated for any size; held direct, so that writes go out whole (NonBlockingBody). */
    private static final NonBlockingBody.Repeating PATTERN = NonBlockingBody.repeating(pattern());

    private transient ScheduledExecutorService timer;

    @Override
    public void init() {
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "h2bench-option-delay");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long size;
        long delay;
        try {
            // The query alone: getParameter would parse a form-typed body too (curl's -d, an HTML form),
            // refusing a binary one with 400 and leaving drain() nothing to count.
            MultiMap<String> query = UrlEncoded.decodeQuery(request.getQueryString() == null ? "" : request.getQueryString());
            size = Quantities.size("size", query.getValue("size"), 0);
            delay = Quantities.delay("delay", query.getValue("delay"));
        } catch (IllegalArgumentException e) {
            PlainText.send(request, response, HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
            return;
        }
        long received = drain(request.getInputStream());
        response.setHeader("X-Request-Body-Bytes", Long.toString(received));
        response.setContentType("application/octet-stream");
        response.setContentLengthLong(size);
        // Async and non-blocking: a client that stops reading holds no request thread (500 such clients
        // at the 64 MiB cap exhausted the pool and stalled everyone else); the idle timeout ends it.
        AsyncContext async = request.startAsync();
        long body = "HEAD".equals(request.getMethod()) ? 0 : size;
        if (delay == 0) {
            sendBody(async, response, body);
        } else {
            timer.schedule(() -> async.start(() -> sendBody(async, response, body)), delay, TimeUnit.MILLISECONDS);
        }
    }

    private static void sendBody(AsyncContext async, HttpServletResponse response, long size) {
        try {
            NonBlockingBody.start(async, response, PATTERN, size);
        } catch (IOException | IllegalStateException e) {
            async.complete(); // the client left while we waited; nothing to tell it
        }
    }

    /** Reads the request body to its end; a request with none (most) costs no buffer: 16 KiB each was 330 MB/s of garbage at 20,000 req/s. */
    private static long drain(InputStream in) throws IOException {
        if (in.read() < 0) {
            return 0;
        }
        byte[] buffer = new byte[16 * 1024];
        long total = 1;
        for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
            total += read;
        }
        return total;
    }

    private static byte[] pattern() {
        byte[] bytes = new byte[64 * 1024];
        byte[] line = "h2bench option body 0123456789 abcdefghijklmnopqrstuvwxyz\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = line[i % line.length];
        }
        return bytes;
    }
}
