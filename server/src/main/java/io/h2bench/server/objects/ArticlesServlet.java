package io.h2bench.server.objects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.PushBuilder;

/**
 * Seed 004's REST collection. {@code /articles?count=N} lists N item links,
 * {@code &embed=item} embeds the items (the "compound" document), {@code /articles/{id}} is one
 * item with a strong ETag, and {@code Prefer-Push: item} on HTTP/2 pushes every listed item.
 */
public class ArticlesServlet extends HttpServlet {

    static final int DEFAULT_COUNT = 25;
    static final int MAX_COUNT = 10_000;
    private static final String JSON = "application/json";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String item = request.getPathInfo();
        if (item == null || item.equals("/")) {
            collection(request, response);
        } else {
            item(item.substring(1), request, response);
        }
    }

    private void collection(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int count;
        boolean embed;
        try {
            count = Quantities.count("count", request.getParameter("count"), DEFAULT_COUNT, 0, MAX_COUNT);
            embed = embedItems(request.getParameter("embed"));
        } catch (IllegalArgumentException e) {
            PlainText.send(request, response, HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
            return;
        }
        PushBuilder push = prefersItemPush(request) ? request.newPushBuilder() : null;
        if (push != null) {
            // A PushBuilder starts with this request's query (count=N): the items' URLs have none.
            push.queryString(null);
            for (int id = 1; id <= count; id++) {
                push.path(href(id)).push();
            }
        }
        StringBuilder json = new StringBuilder(64 + count * (embed ? 200 : 30));
        json.append("{\"_links\":{\"item\":[");
        for (int id = 1; id <= count; id++) {
            json.append(id == 1 ? "" : ",").append("{\"href\":\"").append(href(id)).append("\"}");
        }
        json.append("]}");
        if (embed) {
            json.append(",\"_embedded\":{\"item\":[");
            for (int id = 1; id <= count; id++) {
                json.append(id == 1 ? "" : ",").append(article(id));
            }
            json.append("]}");
        }
        json.append(",\"total\":").append(count).append("}");
        byte[] body = json.toString().getBytes(StandardCharsets.UTF_8);
        response.setContentType(JSON);
        NonBlockingBody.send(request, response, body);
    }

    private void item(String id, HttpServletRequest request, HttpServletResponse response) throws IOException {
        int number;
        try {
            number = Integer.parseInt(id);
        } catch (NumberFormatException e) {
            number = -1;
        }
        if (number < 1 || number > MAX_COUNT || !id.equals(Integer.toString(number))) {
            PlainText.send(request, response, HttpServletResponse.SC_NOT_FOUND, "not found: " + request.getRequestURI());
            return;
        }
        StaticObject article = StaticObject.of(href(number), JSON, article(number).getBytes(StandardCharsets.UTF_8));
        // Fresh for an hour: a cache may reuse it unasked (seed 004's "cached"), or revalidate (its "304").
        response.setHeader("Cache-Control", "public, max-age=3600");
        StaticObjectServlet.write(article, request, response);
    }

    private static boolean embedItems(String embed) {
        if (embed == null) {
            return false;
        }
        if (!embed.equals("item")) {
            throw new IllegalArgumentException("embed must be item, was " + embed);
        }
        return true;
    }

    private static boolean prefersItemPush(HttpServletRequest request) {
        for (var values = request.getHeaders("Prefer-Push"); values.hasMoreElements(); ) {
            for (String relation : values.nextElement().split(",")) {
                if (relation.trim().toLowerCase(Locale.ROOT).equals("item")) {
                    return true;
                }
            }
        }
        return false;
    }

    static String href(int id) {
        return "/articles/" + id;
    }

    static String article(int id) {
        return "{\"id\":" + id
                + ",\"title\":\"Article " + id + "\""
                + ",\"author\":\"h2bench\""
                + ",\"body\":\"Article number " + id + " of the collection, a small JSON document as in a REST API.\""
                + ",\"_links\":{\"self\":{\"href\":\"" + href(id) + "\"}}}";
    }
}
