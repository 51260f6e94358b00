package io.h2bench.server.objects;

import java.io.IOException;
import java.io.InputStream;
import java.util.EnumSet;
import java.util.concurrent.Semaphore;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;

/**
 * Reads and discards a request's body before a servlet that ignores bodies answers. Answering first
 * closes the stream, and a body that then breaks its content-length (RFC 9113 8.1.1) arrives on a
 * closed stream: the client would get a response instead of the stream error it has earned.
 * <p>
 * Only a body with a declared Content-Length can break it, so only such a body is read, and at most
 * {@value #CONCURRENT_DISCARDS} requests at once wait for theirs: a read that waits holds a server
 * thread, and streams that announce a body and never send it would otherwise take every thread
 * (Http2AbuseTest). Beyond that the servlet answers at once, as it would without this filter.
 */
final class BodyFirstFilter implements Filter {

    static final int CONCURRENT_DISCARDS = 16;

    private final Semaphore discarding = new Semaphore(CONCURRENT_DISCARDS);

    /** Puts the filter in front of every servlet of the context (none reads its body; {@link OptionHandler} reads its own). */
    static void install(ServletContextHandler context) {
        FilterHolder holder = new FilterHolder(new BodyFirstFilter());
        holder.setAsyncSupported(true);
        context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (request.getContentLengthLong() >= 0 && discarding.tryAcquire()) {
            try {
                discard(request.getInputStream());
            } finally {
                discarding.release();
            }
        }
        chain.doFilter(request, response);
    }

    private static void discard(InputStream body) throws IOException {
        byte[] buffer = new byte[8 * 1024];
        while (body.read(buffer) >= 0) {
            // Only the end of the body matters here.
        }
    }
}
