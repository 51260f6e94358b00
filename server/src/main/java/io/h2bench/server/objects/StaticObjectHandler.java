package io.h2bench.server.objects;

import java.util.Map;
import java.util.stream.Collectors;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Seed 000's fixed objects (the page, its stylesheet and photographs, {@code /inline}, the two text
 * files) as a Jetty core handler in front of the servlets: a GET or HEAD of an object's exact path is
 * answered here, anything else (another method, another path, a 404) goes on to the servlet context
 * as before.
 * <p>
 * Served by {@link StaticObjectServlet}, each such request cost Jetty's servlet request and response
 * wrappers, a filter, an async context and a {@code WriteListener}'s dispatches, and, because a tree
 * holding a servlet context is BLOCKING, a hand-off to another thread before anything ran: on a
 * busy machine every hand-off waits for a core, and an HTTP/2 connection's first response waited for
 * several (issue 42). Here the request is answered on the thread that parsed it, from the same shared
 * direct buffer, with the servlet's status, headers in the servlet's order and bytes.
 */
public final class StaticObjectHandler extends Handler.Wrapper {

    private final Map<String, Served> objects;

    /** Serves {@code objects} by exact path and hands every other request to {@code next}. */
    public StaticObjectHandler(Map<String, StaticObject> objects, Handler next) {
        super(next);
        this.objects = Map.copyOf(objects.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> new Served(entry.getValue()))));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String method = request.getMethod();
        boolean head = HttpMethod.HEAD.is(method);
        Served served = head || HttpMethod.GET.is(method) ? objects.get(request.getHttpURI().getPath()) : null;
        if (served == null) {
            return super.handle(request, response, callback);
        }
        // The request's end first, whatever its body: HTTP/2's content-length checks need the stream open
        // (BodyFirstFilter), and a HEAD over HTTP/3 answered before its FIN arrived got a 500.
        RequestBodyDrain.thenRespond(request, callback, received -> respond(served, head, request, response, callback));
        return true;
    }

    /** {@link StaticObjectServlet#write}'s answer: the validator, then a 304, or the type, the length and the body. */
    private static void respond(Served served, boolean head, Request request, Response response, Callback callback) {
        HttpFields.Mutable headers = response.getHeaders();
        headers.put(served.etag);
        String ifNoneMatch = request.getHeaders().get(HttpHeader.IF_NONE_MATCH);
        if (ifNoneMatch != null && served.object.isMatchedBy(ifNoneMatch)) {
            response.setStatus(HttpStatus.NOT_MODIFIED_304);
            callback.succeeded();
            return;
        }
        headers.put(served.contentType);
        headers.put(HttpHeader.CONTENT_LENGTH, served.object.size());
        new DirectBodyWrite(response, served.body, head ? 0 : served.object.size(), callback).iterate();
    }

    /** An object with its header fields made once. */
    private record Served(StaticObject object, HttpField etag, HttpField contentType, NonBlockingBody.Repeating body) {

        Served(StaticObject object) {
            this(object, new HttpField(HttpHeader.ETAG, object.etag()), new HttpField(HttpHeader.CONTENT_TYPE, object.contentType()),
                    new NonBlockingBody.Repeating(object.body(), object.size()));
        }
    }
}
