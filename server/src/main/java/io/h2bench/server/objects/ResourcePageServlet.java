package io.h2bench.server.objects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Seed 003's sweep as a page: {@code /resources?count=N&size=S&delay=D} is an HTML page embedding
 * N distinct {@code /option?size=S&delay=D&n=K} images, so a browser-like client (the sampler's
 * "Retrieve All Embedded Resources") fires N parallel requests, as the seed's client did.
 */
public class ResourcePageServlet extends HttpServlet {

    static final int MAX_COUNT = 10_000;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int count;
        String size = request.getParameter("size");
        String delay = request.getParameter("delay");
        try {
            count = Quantities.count("count", request.getParameter("count"), 6, 1, MAX_COUNT);
            Quantities.size("size", size, 0);
            Quantities.delay("delay", delay);
        } catch (IllegalArgumentException e) {
            PlainText.send(request, response, HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
            return;
        }
        String query = "size=" + (size == null ? "0" : size.trim()) + "&amp;delay=" + (delay == null ? "0" : delay.trim());
        StringBuilder html = new StringBuilder(200 + count * 60);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(count).append(" resources</title>\n</head>\n<body>\n");
        for (int n = 1; n <= count; n++) {
            // n makes every URL distinct: clients fetch a repeated URL only once.
            html.append("<img src=\"/option?").append(query).append("&amp;n=").append(n).append("\" alt=\"\">\n");
        }
        html.append("</body>\n</html>\n");
        byte[] body = html.toString().getBytes(StandardCharsets.UTF_8);
        response.setContentType("text/html;charset=utf-8");
        NonBlockingBody.send(request, response, body);
    }
}
