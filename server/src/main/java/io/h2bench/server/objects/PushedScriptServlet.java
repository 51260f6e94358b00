package io.h2bench.server.objects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.PushBuilder;

/**
 * Seed 003's push experiment: {@code /pushed-script} is a small page whose one resource is a
 * 290 kB JavaScript file, {@code /pushed-script.js}. With {@code ?push=true} on HTTP/2 the script
 * is pushed before the page is written; without it the client requests the script after reading
 * the page, one round trip later, which is all that push can save.
 */
public class PushedScriptServlet extends HttpServlet {

    public static final String PAGE = "/pushed-script";
    public static final String SCRIPT = "/pushed-script.js";
    /** The seed's "290Kb JS file", read as 290 kB. */
    static final int SCRIPT_SIZE = 290_000;

    private final transient StaticObject page = StaticObject.of(PAGE, "text/html;charset=utf-8", page());
    private final transient StaticObject script = StaticObject.of(SCRIPT, "text/javascript;charset=utf-8", script());

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getRequestURI().equals(SCRIPT)) {
            StaticObjectServlet.write(script, request, response);
            return;
        }
        String push = request.getParameter("push");
        if (push != null && !push.equals("true") && !push.equals("false")) {
            PlainText.send(request, response, HttpServletResponse.SC_BAD_REQUEST, "push must be true or false, was " + push);
            return;
        }
        PushBuilder pushBuilder = "true".equals(push) ? request.newPushBuilder() : null;
        if (pushBuilder != null) {
            // The script's URL has no query: not the page's push=true.
            pushBuilder.queryString(null).path(SCRIPT).push();
        }
        response.setHeader("X-Pushed-Resources", pushBuilder == null ? "0" : "1");
        StaticObjectServlet.write(page, request, response);
    }

    private static byte[] page() {
        return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<title>h2bench pushed script (seed 003)</title>\n"
                + "<script src=\"" + SCRIPT + "\"></script>\n</head>\n<body>\n"
                + "<p>One page, one 290 kB script: pushed with the page (?push=true on HTTP/2) or requested by it.</p>\n"
                + "</body>\n</html>\n").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] script() {
        return TextCorpus.wrapped(SCRIPT_SIZE, 290, "/*\n", "*/\nwindow.h2benchScript = true;\n");
    }
}
