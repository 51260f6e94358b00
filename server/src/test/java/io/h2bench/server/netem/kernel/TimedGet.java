package io.h2bench.server.netem.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One HTTP/1.1 GET on a plain socket, timed from the request's write to the body's last byte, the
 * connection left open so the server's socket can still be inspected. No client library in the way.
 */
final class TimedGet implements AutoCloseable {

    private static final Pattern SKMEM_DROPS = Pattern.compile("skmem:\\(.*,d(\\d+)\\)");

    private final Socket socket = new Socket();
    private long nanos;
    private long bodyBytes;

    TimedGet(String host, int port) throws IOException {
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(60_000);
    }

    /** Sends the request and reads the whole response; returns this. */
    TimedGet fetch(String path) throws IOException {
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: h2bench\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        long start = System.nanoTime();
        socket.getOutputStream().write(request);
        InputStream in = socket.getInputStream();
        long length = contentLength(readHeaders(in));
        byte[] buffer = new byte[64 * 1024];
        while (bodyBytes < length) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, length - bodyBytes));
            if (n < 0) {
                throw new IOException("connection closed after " + bodyBytes + " of " + length + " bytes");
            }
            bodyBytes += n;
        }
        nanos = System.nanoTime() - start;
        return this;
    }

    long millis() {
        return nanos / 1_000_000;
    }

    long bodyBytes() {
        return bodyBytes;
    }

    /** Segments the kernel dropped at this socket (ss's skmem {@code d}): for want of memory or receive space. */
    long receiveQueueDrops() throws IOException, InterruptedException {
        Process ss = new ProcessBuilder("ss", "-tnmH", "sport", "= :" + localPort()).redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        ss.waitFor();
        Matcher drops = SKMEM_DROPS.matcher(out);
        if (!drops.find()) {
            throw new IOException("no skmem drops for port " + localPort() + " in ss's output: " + out);
        }
        return Long.parseLong(drops.group(1));
    }

    int localPort() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private static String readHeaders(InputStream in) throws IOException {
        StringBuilder headers = new StringBuilder();
        while (headers.length() < 16_384 && !headers.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed in the headers: " + headers);
            }
            headers.append((char) b);
        }
        return headers.toString();
    }

    private static long contentLength(String headers) throws IOException {
        for (String line : headers.split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                return Long.parseLong(line.substring(15).trim());
            }
        }
        throw new IOException("no Content-Length in " + headers);
    }
}
