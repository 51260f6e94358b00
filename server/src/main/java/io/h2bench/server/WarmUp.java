package io.h2bench.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import io.h2bench.server.h3.Http3WarmUp;

/**
 * New connections the server makes to its own listeners before it says it is ready, each with a
 * full TLS handshake and two requests of seed 000's page (over HTTP/3, 30 small ones more), so that
 * the JIT has compiled the TLS handshake, HTTP/1.1, HTTP/2 and HTTP/3 before the first client comes
 * (the h3 listener's by {@link Http3WarmUp}). Issue 42 measured why: behind the kernel link a fresh server took 4.9 ms from a ClientHello to its first flight where Caddy took
 * 1.8, and 2.2 ms from a request to its response where Caddy took 0.6 (both with the RSA key); after
 * 1,000 connections per listener it took 1.8 and 0.8-0.9. A maintained server is native code and
 * answers its first client as fast as its thousandth; a cold comparison against a fresh h2bench
 * measured its JIT. The warm-up ends when the JIT has compiled what it queued (see settle).
 * The connections go straight to Jetty (inside the kernel link's namespace, over its loopback), so
 * no emulated network slows them and no link counter sees them.
 */
public final class WarmUp {

    /**
     * Connections per listener by default: past the steep part of the cost (per connection, client and
     * server in one JVM: 12 ms in the first 100, 3 to 4 ms from the 500th, about 3 from the 1,200th).
     * With the JIT's settling, 6 to 8 s on two cores shared with a load average of 15 to 25 (2026-11-28).
     */
    static final int DEFAULT_CONNECTIONS = 300;
    /** A machine so slow that the warm-up takes longer stops it here: the server starts anyway. */
    static final Duration TIME_LIMIT = Duration.ofSeconds(20);
    private static final String PAGE = "/";
    private static final String IMAGE = "/img8.jpeg";
    /**
     * Each h3 connection's requests: the page and the image, as over TCP, and 30 small responses
     * more. The h3 listener's code for a request (Netty's HTTP/3 codec, the hand-off to Jetty) runs
     * once per request, and 600 requests left much of it to the JIT's first tier: on loopback, a
     * warm 100 B request after a 1 s gap took a median 3.6 ms, quic-go's server 1.6; with 9,600
     * requests, 2.5 (2026-11-30).
     */
    private static final List<String> H3_REQUESTS = h3Requests(30, "/option?size=100");
    private static final int THREADS = 2;
    /** The JIT counts as done when it compiles for less than this share of a settling step. */
    private static final Duration SETTLE_STEP = Duration.ofMillis(200);
    private static final double SETTLED_SHARE = 0.05;

    /** One new connection to a listener, with its requests. */
    private interface NewConnection {
        void make() throws IOException;
    }

    /** Opens an unconnected socket where the listeners are reachable (the kernel link's namespace). */
    interface SocketOpener {
        SocketChannel open() throws IOException;
    }

    /** What the warm-up did: connections made, how long it took, and why it stopped early (null when it did not). */
    public record Result(int connections, Duration took, String failure) {

        /** For the banner: "1200 connections to its own listeners in 2.1 s". */
        public String describe() {
            String made = connections + " connections to its own listeners in " + String.format("%.1f s", took.toMillis() / 1000.0);
            return failure == null ? made : made + ", stopped: " + failure;
        }
    }

    private final Map<Listener, InetSocketAddress> listeners;
    private final SocketOpener opener;
    private final SSLContext trustAll;
    private final AtomicInteger sessions = new AtomicInteger();

    private WarmUp(Map<Listener, InetSocketAddress> listeners, SocketOpener opener) throws GeneralSecurityException {
        this.listeners = listeners;
        this.opener = opener;
        this.trustAll = SSLContext.getInstance("TLS");
        trustAll.init(null, new TrustManager[] {new TrustingManager()}, null);
    }

    /**
     * {@code perListener} connections to each of {@code listeners} and to the h3 listener ({@code h3}, null when
     * there is none), taking turns, two at a time; never throws.
     */
    static Result run(Map<Listener, InetSocketAddress> listeners, SocketOpener opener, Http3WarmUp h3, int perListener) {
        long start = System.nanoTime();
        if (perListener == 0) {
            return new Result(0, Duration.ZERO, null);
        }
        ExecutorService threads = Executors.newFixedThreadPool(THREADS, task -> {
            Thread thread = new Thread(task, "h2bench-warm-up");
            thread.setDaemon(true);
            return thread;
        });
        AtomicInteger made = new AtomicInteger();
        try {
            WarmUp warmUp = new WarmUp(listeners, opener);
            long deadline = start + TIME_LIMIT.toNanos();
            List<NewConnection> targets = new ArrayList<>();
            listeners.keySet().forEach(listener -> targets.add(() -> warmUp.connect(listener)));
            if (h3 != null) {
                targets.add(() -> h3.connect(H3_REQUESTS));
            }
            List<Future<?>> turns = new ArrayList<>();
            for (int i = 0; i < perListener; i++) {
                for (NewConnection target : targets) {
                    turns.add(threads.submit(() -> {
                        if (System.nanoTime() < deadline) {
                            target.make();
                            made.incrementAndGet();
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> turn : turns) {
                turn.get();
            }
            settle(deadline);
            String late = System.nanoTime() >= deadline ? "the time limit of " + TIME_LIMIT.toSeconds() + " s" : null;
            return new Result(made.get(), Duration.ofNanos(System.nanoTime() - start), late);
        } catch (Exception e) {
            Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
            return new Result(made.get(), Duration.ofNanos(System.nanoTime() - start), cause.toString());
        } finally {
            threads.shutdownNow();
            try {
                threads.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits until the JIT has compiled what the connections queued for it (it works in threads of
     * its own, and on a busy machine falls seconds behind): until it compiles for less than 5 % of
     * a 200 ms step, or the deadline. Code still queued would be compiled during the first clients'
     * connections, and its compiler threads would take the CPU they need.
     */
    private static void settle(long deadline) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long compiled = jit.getTotalCompilationTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(SETTLE_STEP.toMillis());
            long now = jit.getTotalCompilationTime();
            if (now - compiled < SETTLED_SHARE * SETTLE_STEP.toMillis()) {
                return;
            }
            compiled = now;
        }
    }

    private static List<String> h3Requests(int small, String smallPath) {
        List<String> requests = new ArrayList<>(List.of(PAGE, IMAGE));
        requests.addAll(Collections.nCopies(small, smallPath));
        return List.copyOf(requests);
    }

    /** One new connection to {@code listener}: its handshake, then the page and an image. */
    private void connect(Listener listener) throws IOException {
        InetSocketAddress address = listeners.get(listener);
        SocketChannel channel = opener.open();
        try (Socket plain = channel.socket()) {
            channel.connect(address);
            plain.setSoTimeout(10_000);
            plain.setTcpNoDelay(true);
            String authority = address.getHostString() + ":" + address.getPort();
            switch (listener) {
                case H1 -> http11(plain, authority);
                case H1_TLS -> http11(tls(plain, address, "http/1.1"), authority);
                case H2 -> http2(tls(plain, address, "h2"), authority, "https");
                case H2C -> http2(plain, authority, "http");
            }
        }
    }

    /**
     * A full handshake every time: the session cache is keyed by the peer's host and port, so a
     * port of its own per connection keeps the client from offering a session to resume.
     */
    private SSLSocket tls(Socket plain, InetSocketAddress address, String protocol) throws IOException {
        int cacheKey = 1 + Math.floorMod(sessions.getAndIncrement(), 65_535);
        SSLSocket socket = (SSLSocket) trustAll.getSocketFactory().createSocket(plain, address.getHostString(), cacheKey, true);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {protocol});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    /** Both requests at once (pipelined), the second closing the connection; reads to the end. */
    private static void http11(Socket socket, String authority) throws IOException {
        String requests = "GET " + PAGE + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n"
                + "GET " + IMAGE + " HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n\r\n";
        OutputStream out = socket.getOutputStream();
        out.write(requests.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[16_384];
        while (in.read(buffer) >= 0) {
            // the bodies are not looked at: the server did its work by sending them
        }
    }

    /** The connection preface, GET of the page (stream 1) and the image (stream 3); reads until both end, then GOAWAY. */
    private static void http2(Socket socket, String authority, String scheme) throws IOException {
        OutputStream out = socket.getOutputStream();
        ByteArrayOutputStream opening = new ByteArrayOutputStream();
        opening.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        frame(opening, 0x4, 0, 0, new byte[0]);
        frame(opening, 0x1, 0x5, 1, requestHeaders(scheme, PAGE, authority));
        frame(opening, 0x1, 0x5, 3, requestHeaders(scheme, IMAGE, authority));
        out.write(opening.toByteArray());
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int ended = 0;
        while (ended < 2) {
            int length = in.readUnsignedShort() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int stream = in.readInt() & 0x7fff_ffff;
            in.skipNBytes(length);
            if (type == 0x4 && (flags & 0x1) == 0) {
                frame(out, 0x4, 0x1, 0, new byte[0]);
                out.flush();
            } else if (type == 0x7) {
                throw new IOException("GOAWAY from the h2 listener during the warm-up");
            } else if ((type == 0x0 || type == 0x1) && (flags & 0x1) != 0 && stream != 0) {
                ended++;
            }
        }
        frame(out, 0x7, 0, 0, new byte[8]);
        out.flush();
    }

    /** An HPACK block without Huffman or dynamic table: GET and the scheme indexed, path and authority literal. */
    private static byte[] requestHeaders(String scheme, String path, String authority) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82);
        block.write("https".equals(scheme) ? 0x87 : 0x86);
        literal(block, 0x04, path);
        literal(block, 0x01, authority);
        return block.toByteArray();
    }

    /** A literal header field without indexing whose name is static table entry {@code nameIndex} (short values only). */
    private static void literal(ByteArrayOutputStream block, int nameIndex, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        block.write(nameIndex);
        block.write(bytes.length);
        block.writeBytes(bytes);
    }

    private static void frame(OutputStream out, int type, int flags, int stream, byte[] payload) throws IOException {
        out.write(new byte[] {(byte) (payload.length >>> 16), (byte) (payload.length >>> 8), (byte) payload.length,
                (byte) type, (byte) flags,
                (byte) (stream >>> 24), (byte) (stream >>> 16), (byte) (stream >>> 8), (byte) stream});
        out.write(payload);
    }

    /** The server's own certificate, on its own connection: nothing to check. */
    private static final class TrustingManager implements X509TrustManager {

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
