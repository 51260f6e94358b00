package io.h2bench.parity;

import io.h2bench.server.TlsMaterial;
import io.h2bench.server.TlsProfile;
import io.h2bench.server.h3.Http3Connector;
import io.h2bench.server.h3.QuicOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import javax.net.ssl.KeyManagerFactory;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.SecurityHandler;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.DigestAuthenticator;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.security.Credential;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The peer both samplers talk to in the parity tests: one cleartext port (HTTP/1.1 and h2c prior
 * knowledge) and one TLS port (ALPN h2, http/1.1), on loopback, port 0. It answers what it received,
 * so a test can compare what JMeter's HttpClient4 and h2bench actually sent.
 * <ul>
 *   <li>{@code /echo} (and {@code /digest/echo}, behind HTTP Digest authentication): the method, target, headers (one per line) and, after a blank line, the body.</li>
 *   <li>{@code /gzip}: a compressible text, gzip-encoded only when the request's Accept-Encoding has gzip;
 *       the Accept-Encoding received is echoed in {@code X-Accept-Encoding-Received}.</li>
 *   <li>{@code /early}: a 302 sent before reading the request body (which it never reads).</li>
 *   <li>{@code /redirect?to=URL}: a 302 to URL.</li>
 *   <li>{@code /hops?n=N}: a 302 to {@code /hops?n=N-1}, and at 0 to {@code /echo}.</li>
 *   <li>{@code /page?img=URL}: an HTML page whose one image is URL, by default {@code /hops?n=2} (a resource redirected twice).</li>
 * </ul>
 * {@link #withHttp3} adds HTTP/3 on a UDP port of its own ({@link #h3Port()}), with the same answers.
 */
public final class ParityPeer implements AutoCloseable {

    /** Repetitive enough that gzip shrinks it ten times, as the issue's HTML page did. */
    public static final String TEXT = "h2bench parity: the same bytes over every protocol. ".repeat(2000);

    public static final String USER = "parity";
    public static final String PASSWORD = "s3cret";
    public static final String REALM = "h2bench-parity";
    /** How long /late waits before it reads the body: past HttpClient4's 3 s wait for a 100 Continue. */
    public static final long LATE_MILLIS = 3_500;

    private final Server server = new Server();
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final ServerConnector clear;
    private final ServerConnector secure;
    private final Http3Connector quic;

    public ParityPeer(Path workDir) throws Exception {
        this(workDir, false);
    }

    /** A peer that also answers over HTTP/3, on the TLS port's certificate. */
    public static ParityPeer withHttp3(Path workDir) throws Exception {
        return new ParityPeer(workDir, true);
    }

    private ParityPeer(Path workDir, boolean http3) throws Exception {
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        clear = new ServerConnector(server, new HttpConnectionFactory(http), new HTTP2CServerConnectionFactory(http));
        clear.setHost("127.0.0.1");
        secure = new ServerConnector(server, tlsFactories(http, workDir));
        secure.setHost("127.0.0.1");
        server.addConnector(clear);
        server.addConnector(secure);
        quic = http3 ? new Http3Connector(server, http, quicKeys(workDir), QuicOptions.defaults()) : null;
        if (quic != null) {
            quic.setHost("127.0.0.1");
            server.addConnector(quic);
        }
        server.setHandler(new Counting(digestRealm(new Answers()), requests));
        server.start();
    }

    /** {@code /digest/*} needs user {@value #USER} / {@value #PASSWORD}, checked by Jetty's DigestAuthenticator. */
    private static Handler digestRealm(Handler answers) {
        UserStore users = new UserStore();
        users.addUser(USER, Credential.getCredential(PASSWORD), new String[] {"user"});
        HashLoginService login = new HashLoginService(REALM);
        login.setUserStore(users);
        SecurityHandler.PathMapped security = new SecurityHandler.PathMapped(answers);
        security.put("/digest/*", Constraint.ANY_USER);
        security.setAuthenticator(new DigestAuthenticator());
        security.setLoginService(login);
        return security;
    }

    /**
     * A TLS port's connection factories on {@code http}'s settings: ALPN choosing h2 or HTTP/1.1
     * (HTTP/1.1 when the client offers neither), a self-signed certificate for localhost and
     * 127.0.0.1 kept in {@code workDir}, HTTP/2's ciphers first, no SNI host check.
     */
    public static ConnectionFactory[] tlsFactories(HttpConfiguration http, Path workDir) throws IOException {
        HttpConfiguration https = new HttpConfiguration(http);
        SecureRequestCustomizer customizer = new SecureRequestCustomizer();
        customizer.setSniHostCheck(false);
        https.addCustomizer(customizer);
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol("http/1.1");
        return new ConnectionFactory[] {new SslConnectionFactory(selfSignedTls(workDir), alpn.getProtocol()), alpn,
            new HTTP2ServerConnectionFactory(https), new HttpConnectionFactory(https)};
    }

    private static SslContextFactory.Server selfSignedTls(Path workDir) throws IOException {
        // RSA 2048, as h2bench's certificate was when these tests were written: HandshakeTimeoutParityTest
        // trickles the server's first 1,500 bytes, which an ECDSA certificate's flight does not reach.
        TlsMaterial material = material(workDir);
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(material.keystore().toAbsolutePath().toString());
        ssl.setKeyStorePassword(material.password());
        ssl.setKeyStoreType("PKCS12");
        ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
        return ssl;
    }

    private static KeyManagerFactory quicKeys(Path workDir) throws IOException {
        TlsMaterial material = material(workDir);
        try (InputStream in = Files.newInputStream(material.keystore())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, material.password().toCharArray());
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, material.password().toCharArray());
            return keys;
        } catch (GeneralSecurityException unreadable) {
            throw new IOException(unreadable);
        }
    }

    /** The UDP port of HTTP/3 ({@link #withHttp3} only). */
    public int h3Port() {
        return quic.getLocalPort();
    }

    private static TlsMaterial material(Path workDir) throws IOException {
        return TlsMaterial.load(workDir.resolve("peer.p12"), TlsMaterial.GENERATED_PASSWORD, true,
                java.util.List.of(), TlsProfile.KeyType.RSA_2048);
    }

    /** {@code http://127.0.0.1:port} or {@code https://…} of this peer. */
    public String origin(boolean tls) {
        return (tls ? "https" : "http") + "://127.0.0.1:" + (tls ? secure : clear).getLocalPort();
    }

    public int port(boolean tls) {
        return (tls ? secure : clear).getLocalPort();
    }

    /**
     * Requests received for this path so far, challenged ones included, from one client: the
     * product of its User-Agent ({@code Apache-HttpClient} for HttpClient4; h2bench sends none: "-").
     */
    public int requests(String path, String userAgentProduct) {
        AtomicInteger count = requests.get(path + " " + userAgentProduct);
        return count == null ? 0 : count.get();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception failure) {
            throw new IllegalStateException(failure);
        }
    }

    /** Counts every request by path before the realm or the answers see it. */
    private static final class Counting extends Handler.Wrapper {
        private final Map<String, AtomicInteger> requests;

        Counting(Handler handler, Map<String, AtomicInteger> requests) {
            super(handler);
            this.requests = requests;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String agent = request.getHeaders().get(HttpHeader.USER_AGENT);
            String product = agent == null ? "-" : agent.split("/")[0];
            requests.computeIfAbsent(Request.getPathInContext(request) + " " + product, key -> new AtomicInteger()).incrementAndGet();
            return super.handle(request, response, callback);
        }
    }

    private static final class Answers extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String path = Request.getPathInContext(request);
            switch (path) {
                case "/echo", "/digest/echo" -> echo(request, response, callback);
                case "/gzip" -> gzip(request, response, callback);
                case "/early" -> redirect(response, callback, "/echo");
                case "/refuse" -> Response.writeError(request, response, callback, 417); // before the body: no 100 Continue
                case "/late" -> late(request, response, callback);
                case "/redirect" -> redirect(response, callback, Request.extractQueryParameters(request).getValue("to"));
                case "/hops" -> hops(request, response, callback);
                case "/page" -> page(request, response, callback);
                default -> Response.writeError(request, response, callback, 404);
            }
            return true;
        }

        private static void echo(Request request, Response response, Callback callback) throws IOException {
            StringBuilder text = new StringBuilder(request.getMethod()).append(' ')
                    .append(request.getHttpURI().getPathQuery()).append('\n');
            for (HttpField field : request.getHeaders()) {
                text.append(field.getName()).append(": ").append(field.getValue()).append('\n');
            }
            text.append('\n');
            byte[] body = BufferUtil.toArray(Content.Source.asByteBuffer(request));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(text.toString().getBytes(StandardCharsets.UTF_8));
            out.write(body);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=UTF-8");
            response.write(true, ByteBuffer.wrap(out.toByteArray()), callback);
        }

        /**
         * Reads the body only once a client waiting for a 100 Continue ({@code Expect}) has given up
         * and sent it: a server that ignores the expectation. Jetty then sends no 100 (the body is there).
         */
        private static void late(Request request, Response response, Callback callback) throws Exception {
            Thread.sleep(LATE_MILLIS);
            echo(request, response, callback);
        }

        private static void gzip(Request request, Response response, Callback callback) throws IOException {
            String accepted = request.getHeaders().get(HttpHeader.ACCEPT_ENCODING);
            response.getHeaders().put("X-Accept-Encoding-Received", accepted == null ? "(none)" : accepted);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=UTF-8");
            byte[] body = TEXT.getBytes(StandardCharsets.UTF_8);
            if (accepted != null && accepted.contains("gzip")) {
                ByteArrayOutputStream zipped = new ByteArrayOutputStream();
                try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
                    out.write(body);
                }
                body = zipped.toByteArray();
                response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
            }
            response.write(true, ByteBuffer.wrap(body), callback);
        }

        private static void hops(Request request, Response response, Callback callback) {
            int left = Integer.parseInt(Request.extractQueryParameters(request).getValue("n"));
            redirect(response, callback, left <= 0 ? "/echo" : "/hops?n=" + (left - 1));
        }

        private static void page(Request request, Response response, Callback callback) {
            String image = Request.extractQueryParameters(request).getValue("img");
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=UTF-8");
            String html = "<html><head><title>redirected resource</title></head><body><img src=\""
                    + (image == null ? "/hops?n=2" : image) + "\"></body></html>";
            response.write(true, ByteBuffer.wrap(html.getBytes(StandardCharsets.UTF_8)), callback);
        }

        private static void redirect(Response response, Callback callback, String location) {
            response.setStatus(302);
            response.getHeaders().put(HttpHeader.LOCATION, location);
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
            response.write(true, ByteBuffer.allocate(0), callback);
        }
    }

    /** A throwaway directory for the peer's key store. */
    public static Path tempDir() {
        return TempDirs.deletedAtExit("h2bench-parity");
    }
}
