package io.h2bench.server.objects;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Serves objects held in memory by exact path; anything else is 404. Lookup by exact key means
 * no request path can reach beyond the objects, whatever its dots or encodings. Seed 000's objects
 * are answered before they get here, by {@link StaticObjectHandler}: this servlet answers what that
 * handler passes on (other methods, unknown paths) and {@link #write} serves the other servlets' objects.
 */
public class StaticObjectServlet extends HttpServlet {

    private final transient Map<String, StaticObject> objects;

    public StaticObjectServlet(Map<String, StaticObject> objects) {
        this.objects = objects;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StaticObject object = objects.get(request.getRequestURI());
        if (object == null) {
            PlainText.send(request, response, HttpServletResponse.SC_NOT_FOUND, "not found: " + request.getRequestURI());
            return;
        }
        write(object, request, response);
    }

    /** Writes {@code object}, or {@code 304} when the request already holds its validator. */
    static void write(StaticObject object, HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("ETag", object.etag());
        String ifNoneMatch = request.getHeader("If-None-Match");
        if (ifNoneMatch != null && object.isMatchedBy(ifNoneMatch)) {
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            return;
        }
        response.setContentType(object.contentType());
        NonBlockingBody.send(request, response, object.body());
    }
}
