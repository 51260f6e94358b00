package io.h2bench.server.objects;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Seed 001's 16-origin page as virtual hosts of one listener: {@code /average-page} from any host,
 * each resource only from its own {@code domainN.h2bench.test} (a 404 elsewhere, as on a real
 * separate server). {@code /average/connections} lists the TCP connections each origin saw since
 * the last {@code DELETE} of it, so a test or a run can check one connection per origin.
 */
public class AveragePageServlet extends HttpServlet {

    static final String CONNECTIONS = AveragePage.PREFIX + "connections";

    private final transient AveragePage page;
    private final transient OriginConnections connections = new OriginConnections();

    public AveragePageServlet(AveragePage page) {
        this.page = page;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getRequestURI();
        if (path.equals(CONNECTIONS)) {
            PlainText.send(request, response, HttpServletResponse.SC_OK, connections.report().stripTrailing());
            return;
        }
        connections.record(request.getServerName() + ":" + request.getServerPort(),
                request.getRemoteAddr(), request.getRemotePort());
        if (path.equals(AveragePage.PAGE_PATH)) {
            StaticObject html = StaticObject.of(path, "text/html;charset=utf-8",
                    page.html(request.getScheme(), request.getServerPort()));
            StaticObjectServlet.write(html, request, response);
            return;
        }
        int domain = AveragePage.domainOf(request.getServerName());
        StaticObject object = domain == 0 ? null : page.objects(domain).get(path);
        if (object == null) {
            PlainText.send(request, response, HttpServletResponse.SC_NOT_FOUND,
                    "not found: " + path + " on " + request.getServerName());
            return;
        }
        StaticObjectServlet.write(object, request, response);
    }

    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!request.getRequestURI().equals(CONNECTIONS)) {
            PlainText.send(request, response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "only " + CONNECTIONS + " can be cleared");
            return;
        }
        connections.clear();
        PlainText.send(request, response, HttpServletResponse.SC_OK, "cleared");
    }
}
