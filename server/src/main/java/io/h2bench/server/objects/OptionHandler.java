package io.h2bench.server.objects;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.MultiMap;
import org.eclipse.jetty.util.UrlEncoded;

/**
 * Seed 003's dynamic object, {@code /option?size=S&delay=D}: a body of S bytes sent after D ms, as a
 * Jetty core handler in front of the servlet context that serves every other object.
 * <p>
 * It was a servlet writing through a {@code WriteListener} (issue 41). The servlet layer cost the
 * benchmark's only object a request and response wrapper, an async context and Jetty's
 * {@code HttpOutput} state machine per request, and over TLS a cold, overloaded server left
 * connections whose read interest Jetty never applied after such writes. Here the body goes straight
 * to {@link Response#write}: nothing waits on a thread, not the request body, not the delay, not a
 * client that stops reading (its write stays pending until the connector's idle timeout fails it).
 * Any method is accepted; a request body is read and its length echoed in
 * {@code X-Request-Body-Bytes}. The bytes and headers are those the servlet sent.
 */
public final class OptionHandler extends Handler.Wrapper {

    public static final String PATH = "/option";
    /** 64 KiB of text lines, repeated for any size; held direct, so that writes go out whole (NonBlockingBody). */
    private static final NonBlockingBody.Repeating PATTERN = NonBlockingBody.repeating(pattern());
    private static final HttpField OCTET_STREAM = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/octet-stream");
    private static final HttpField PLAIN_TEXT = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");

    /** Serves {@value #PATH} itself and hands every other request to {@code objects}. */
    public OptionHandler(Handler objects) {
        super(objects);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!PATH.equals(Request.getPathInContext(request))) {
            return super.handle(request, response, callback);
        }
        long size;
        long delay;
        try {
            // The query alone, never a form-typed body (curl's -d): that is read and counted below.
            String query = request.getHttpURI().getQuery();
            MultiMap<String> parameters = UrlEncoded.decodeQuery(query == null ? "" : query);
            size = Quantities.size("size", parameters.getValue("size"), 0);
            delay = Quantities.delay("delay", parameters.getValue("delay"));
        } catch (IllegalArgumentException e) {
            // After the request's end too: a HEAD over HTTP/3 refused before its FIN arrived got a 500 (1 in 5 by hand).
            String reason = e.getMessage();
            RequestBodyDrain.thenRespond(request, callback, received -> refuse(request, response, callback, reason));
            return true;
        }
        long length = size;
        long wait = delay;
        RequestBodyDrain.thenRespond(request, callback, received -> respond(request, response, callback, length, wait, received));
        return true;
    }

    /** A one-line 400, as {@link PlainText} answers for the servlets. */
    private static void refuse(Request request, Response response, Callback callback, String reason) {
        byte[] body = (reason + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpStatus.BAD_REQUEST_400);
        response.getHeaders().put(PLAIN_TEXT);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        if (HttpMethod.HEAD.is(request.getMethod())) {
            callback.succeeded();
        } else {
            response.write(true, ByteBuffer.wrap(body), callback);
        }
    }

    /** The head once the request's body has all arrived, then the body after the delay. */
    private static void respond(Request request, Response response, Callback callback, long size, long delay, long received) {
        response.getHeaders().put("X-Request-Body-Bytes", Long.toString(received));
        response.getHeaders().put(OCTET_STREAM);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, size);
        long bodySize = HttpMethod.HEAD.is(request.getMethod()) ? 0 : size;
        DirectBodyWrite body = new DirectBodyWrite(response, PATTERN, bodySize, callback);
        if (delay == 0) {
            body.iterate();
        } else {
            // The scheduler's one thread only hands over: a large body is written from a pool thread.
            request.getComponents().getScheduler().schedule(
                    () -> request.getComponents().getThreadPool().execute(body::iterate), delay, TimeUnit.MILLISECONDS);
        }
    }

    private static byte[] pattern() {
        byte[] bytes = new byte[64 * 1024];
        byte[] line = "h2bench option body 0123456789 abcdefghijklmnopqrstuvwxyz\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = line[i % line.length];
        }
        return bytes;
    }
}
