package io.h2bench.server.objects;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.PushBuilder;

/**
 * {@code /push}: seed 000's page, pushing its stylesheet and fifteen images before the HTML body
 * is written. Where push is impossible (HTTP/1.1, or the client sent SETTINGS_ENABLE_PUSH=0) the
 * plain page is served, as the seed's server did.
 */
public class PushPageServlet extends HttpServlet {

    private final transient StaticObject page;
    private final transient List<String> dependencies;

    public PushPageServlet(StaticObject page, List<String> dependencies) {
        this.page = page;
        this.dependencies = dependencies;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        PushBuilder push = request.newPushBuilder();
        if (push != null) {
            for (String path : dependencies) {
                push.path(path).push();
            }
        }
        response.setHeader("X-Pushed-Resources", Integer.toString(push == null ? 0 : dependencies.size()));
        StaticObjectServlet.write(page, request, response);
    }
}
