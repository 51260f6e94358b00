package io.h2bench.server.objects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** One-line plain-text answers for refused requests, readable in curl and in JMeter's result tree. */
final class PlainText {

    private PlainText() {
    }

    static void send(HttpServletRequest request, HttpServletResponse response, int status, String line) throws IOException {
        byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=utf-8");
        NonBlockingBody.send(request, response, body);
    }
}
