package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS listeners beside a maintained web server (issue 42), in one run: Debian's Caddy (Go's TLS)
 * on loopback with h2bench's own certificate and page, and h2bench as a user starts it, in a JVM of
 * its own with its defaults, so that its JIT is as cold as a user's is. A new connection is timed
 * where the server alone decides the time: from the ClientHello leaving the client to the first
 * byte of the server's first flight (key exchange, signature), and from the request to the whole
 * response (the CPU each server process spent per connection is reported beside them). Before
 * issue 42 a fresh h2bench took 6.8 ms for the first here where Caddy took 1.5 (first quarters of
 * 40, on two busy cores), and picked AES-256-GCM where Caddy picks AES-128-GCM; since, 1.7 to 2.0
 * ms where Caddy takes 0.4 to 0.5 with the same ECDSA key on JSSE. On BoringSSL (Conscrypt, the
 * default since) TLS 1.3's cipher is the client's first choice, as nginx picks, where Caddy picks its own.
 */
class TlsFidelityTest {

    private static final Path CADDY = Path.of("/usr/bin/caddy");
    /** Linux's USER_HZ, the unit of /proc's CPU times. */
    private static final int CLOCK_TICKS = 100;
    /** New connections to each server, taking turns. */
    private static final int ROUNDS = 40;
    /**
     * Issue 42's target for a phase of a new connection: within 3 ms of the maintained server. Held
     * against the first quarter of each server's times, which a machine's load that holds a thread
     * back now and then leaves alone; a fresh JVM's handshakes are slow from the first to the last.
     */
    private static final double PHASE_BAND_MILLIS = 3.0;
    /** Chromium's order of TLS 1.3's and TLS 1.2's AES-GCM suites (JSSE's own puts AES-256-GCM first, as curl's). */
    private static final String[] AES_128_FIRST = {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"};
    private static final Pattern BANNER_KEYSTORE = Pattern.compile("^h2bench server: TLS .*certificate (.*?)( \\(generated now\\))?, SHA-256 ",
            Pattern.MULTILINE);

    @TempDir
    static Path directory;
    private static Process h2bench;
    private static Process caddy;
    private static int h2benchPort;
    private static int caddyPort;

    @BeforeAll
    static void start() throws Exception {
        requireCaddy();
        String banner = startH2bench();
        h2benchPort = port(banner, Listener.H1_TLS);
        Matcher keystore = BANNER_KEYSTORE.matcher(banner);
        assertThat(keystore.find()).as("the banner names the key store: %s", banner).isTrue();
        Path htdocs = Files.createDirectories(directory.resolve("htdocs"));
        try (InputStream page = URI.create("http://127.0.0.1:" + port(banner, Listener.H1) + "/").toURL().openStream()) {
            Files.write(htdocs.resolve("index.html"), page.readAllBytes());
        }
        caddyPort = freePort();
        caddy = startCaddy(Path.of(keystore.group(1)), htdocs);
    }

    @AfterAll
    static void stop() throws Exception {
        for (Process process : new Process[] {caddy, h2bench}) {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    /**
     * Chromium's order, AES-128-GCM first (TLS 1.3 and 1.2); and over TLS 1.2 JSSE's client, which offers
     * AES-256-GCM first as curl and OpenSSL do: TLS 1.2's order is the server's on both servers.
     */
    @ParameterizedTest
    @CsvSource({"TLSv1.3, true", "TLSv1.2, true", "TLSv1.2, false"})
    void shouldPickTheCipherCaddyPicksWhenTheServersOrderDecides(String protocol, boolean aes128First) throws Exception {
        String[] offered = aes128First ? AES_128_FIRST : null;
        String fromCaddy = handshake(caddyPort, protocol, offered).cipher();
        String fromH2bench = handshake(h2benchPort, protocol, offered).cipher();

        assertThat(fromCaddy).as("Caddy's choice").contains("AES_128_GCM");
        assertThat(fromH2bench).isEqualTo(fromCaddy);
    }

    @Test
    void shouldPickTheClientsFirstCipherAsNginxDoesWhenTheClientOffersAes256FirstOverTls13() throws Exception {
        // Caddy picks AES-128-GCM here (Go's own order); nginx (OpenSSL), and BoringSSL, the client's first
        // (benchmarks/server-fidelity.sh prints all three for curl). TLS 1.3's order is not BoringSSL's to set.
        String fromCaddy = handshake(caddyPort, "TLSv1.3", null).cipher();
        String fromH2bench = handshake(h2benchPort, "TLSv1.3", null).cipher();

        assertThat(fromCaddy).as("Caddy's choice").isEqualTo("TLS_AES_128_GCM_SHA256");
        assertThat(fromH2bench).isEqualTo("TLS_AES_256_GCM_SHA384");
    }

    @Test
    void shouldAnswerNewConnectionsAsSoonAsCaddyWhenJustStarted() throws Exception {
        Samples caddySamples = new Samples(caddy);
        Samples h2benchSamples = new Samples(h2bench);
        for (int round = 0; round < ROUNDS; round++) {
            // Caddy first in even rounds, h2bench first in odd ones: a drift in the machine's load weighs on both.
            for (int turn = 0; turn < 2; turn++) {
                Samples samples = (round + turn) % 2 == 0 ? caddySamples : h2benchSamples;
                Connection connection = handshake(samples == caddySamples ? caddyPort : h2benchPort, "TLSv1.3", null);
                double response = connection.fetchPage();
                samples.hello.add(connection.helloMillis());
                samples.response.add(response);
            }
        }
        caddySamples.stop();
        h2benchSamples.stop();

        String report = "h2bench: " + h2benchSamples + "; Caddy: " + caddySamples;
        assertThat(quarter(h2benchSamples.hello)).as(report).isLessThanOrEqualTo(quarter(caddySamples.hello) + PHASE_BAND_MILLIS);
        assertThat(quarter(h2benchSamples.response)).as(report).isLessThanOrEqualTo(quarter(caddySamples.response) + PHASE_BAND_MILLIS);
        // The CPU is reported, not held to a band: on two busy cores h2bench's ranged from 3 to 5 ms per
        // connection where Caddy's was 0.3 to 0.5 (Go's P-256 is assembly, JSSE's is Java), and 7.8 before.
    }

    /** Skips where Caddy is missing; on CI (CI=true) that is a failure, as bin/test installs it. */
    private static void requireCaddy() {
        if (!Files.isExecutable(CADDY) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install Debian's caddy (bin/test): " + CADDY + " is missing");
        }
        assumeTrue(Files.isExecutable(CADDY), CADDY + " is not installed (apt-get install caddy)");
    }

    /** h2bench with its defaults in a JVM of its own, home in the test's directory; returns its banner. */
    private static String startH2bench() throws Exception {
        Path home = Files.createDirectories(directory.resolve("home"));
        Path log = directory.resolve("h2bench.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        h2bench = new ProcessBuilder(java, "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0", "--h3-port", "0")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        for (int wait = 0; wait < 1200; wait++) {
            String banner = Files.readString(log);
            if (banner.contains("server ready")) {
                return banner;
            }
            if (!h2bench.isAlive()) {
                throw new IllegalStateException("h2bench exited: " + banner);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new IllegalStateException("h2bench was not ready in 120 s: " + Files.readString(log));
    }

    /** The port of a listener's first URL in the banner ("h1-tls - ..." then "  https://127.0.0.1:PORT/ ..."). */
    private static int port(String banner, Listener listener) {
        Matcher url = Pattern.compile("^" + Pattern.quote(listener.id()) + " - .*\\n\\s+\\w+://127\\.0\\.0\\.1:(\\d+)/", Pattern.MULTILINE)
                .matcher(banner);
        assertThat(url.find()).as("%s's port in the banner: %s", listener.id(), banner).isTrue();
        return Integer.parseInt(url.group(1));
    }

    /** Caddy serving {@code htdocs} over TLS (h1 and h2) with the key store's key and certificate as PEM files. */
    private static Process startCaddy(Path keystore, Path htdocs) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, TlsMaterial.GENERATED_PASSWORD.toCharArray());
        }
        String alias = store.aliases().nextElement();
        Path key = directory.resolve("key.pem");
        Path certificate = directory.resolve("certificate.pem");
        Files.writeString(key, pem("PRIVATE KEY", store.getKey(alias, TlsMaterial.GENERATED_PASSWORD.toCharArray()).getEncoded()));
        Files.writeString(certificate, pem("CERTIFICATE", store.getCertificate(alias).getEncoded()));
        // A client that connects to an IP address sends no SNI: default_sni picks the certificate.
        Path config = directory.resolve("Caddyfile");
        Files.writeString(config, "{\n\tadmin off\n\tauto_https off\n\tdefault_sni localhost\n\tstorage file_system "
                + directory.resolve("data") + "\n\tservers {\n\t\tprotocols h1 h2\n\t}\n\tlog {\n\t\toutput discard\n\t}\n}\n"
                + "https://127.0.0.1:" + caddyPort + " {\n\tbind 127.0.0.1\n\ttls " + certificate + " " + key + "\n\troot * " + htdocs
                + "\n\tfile_server\n}\n");
        Path log = directory.resolve("caddy.log");
        ProcessBuilder builder = new ProcessBuilder(CADDY.toString(), "run", "--config", config.toString(), "--adapter", "caddyfile")
                .directory(directory.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("HOME", directory.toString());
        builder.environment().put("XDG_DATA_HOME", directory.resolve("data").toString());
        builder.environment().put("XDG_CONFIG_HOME", directory.resolve("config").toString());
        Process process = builder.start();
        for (int attempt = 0; attempt < 100; attempt++) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", caddyPort), 200);
                return process;
            } catch (IOException notYet) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("caddy exited: " + Files.readString(log));
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        throw new IllegalStateException("caddy did not listen on " + caddyPort + " within 10 s: " + Files.readString(log));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The 25th percentile (nearest rank). */
    private static double quarter(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get((int) Math.ceil(sorted.size() / 4.0) - 1);
    }

    /** One server's times, and the CPU its process spent meanwhile. */
    private static final class Samples {

        private final Process process;
        private final long cpuTicksBefore;
        private long cpuTicks;
        final List<Double> hello = new ArrayList<>();
        final List<Double> response = new ArrayList<>();

        Samples(Process process) throws IOException {
            this.process = process;
            this.cpuTicksBefore = cpuTicks(process.pid());
        }

        void stop() throws IOException {
            cpuTicks = cpuTicks(process.pid()) - cpuTicksBefore;
        }

        double cpuMillisPerConnection() {
            return cpuTicks * 1000.0 / CLOCK_TICKS / hello.size();
        }

        @Override
        public String toString() {
            return String.format("ClientHello to first flight, first quarter %.2f ms %s; request to response, first quarter %.2f ms %s; "
                    + "CPU %.2f ms per connection", quarter(hello), rounded(hello), quarter(response), rounded(response), cpuMillisPerConnection());
        }

        private static List<String> rounded(List<Double> values) {
            return values.stream().map(value -> String.format("%.1f", value)).toList();
        }

        /** User and system CPU of a process's threads but its JIT compilers' ("C1 CompilerThre", "C2 CompilerThre"), in ticks. */
        private static long cpuTicks(long pid) throws IOException {
            long ticks = 0;
            try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path task : tasks.toList()) {
                    String stat;
                    try {
                        stat = Files.readString(task.resolve("stat"));
                    } catch (java.nio.file.NoSuchFileException ended) {
                        continue;
                    }
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (!name.matches("C[12] CompilerThre.*")) {
                        ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    }
                }
            }
            return ticks;
        }
    }

    /**
     * A full handshake on a new connection, with a client context of its own (no session to resume),
     * trusting any certificate: the server's own, self-signed.
     */
    private static Connection handshake(int port, String protocol, String[] suites) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustAny()}, null);
        TimedSocket plain = new TimedSocket();
        plain.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        plain.setSoTimeout(10_000);
        plain.setTcpNoDelay(true);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        socket.setEnabledProtocols(new String[] {protocol});
        if (suites != null) {
            socket.setEnabledCipherSuites(suites);
        }
        socket.startHandshake();
        return new Connection(socket, plain.firstAnswerNanos - plain.firstWriteNanos);
    }

    private record Connection(SSLSocket socket, long helloNanos) {

        double helloMillis() {
            return helloNanos / 1e6;
        }

        String cipher() throws IOException {
            try (socket) {
                return socket.getSession().getCipherSuite();
            }
        }

        /** GET / to the end of the response (the server closes the connection); the ms it took. */
        double fetchPage() throws IOException {
            try (socket) {
                long start = System.nanoTime();
                OutputStream out = socket.getOutputStream();
                out.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                byte[] response = socket.getInputStream().readAllBytes();
                double millis = (System.nanoTime() - start) / 1e6;
                assertThat(new String(response, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200").contains("<title>h2bench test page</title>");
                return millis;
            }
        }
    }

    /**
     * A plain socket under the TLS one, noting when its first write (the ClientHello) left and when
     * the first byte came back (the server's first flight): the server's time to answer.
     */
    private static final class TimedSocket extends Socket {

        private volatile long firstWriteNanos;
        private volatile long firstAnswerNanos;

        @Override
        public OutputStream getOutputStream() throws IOException {
            return new FilterOutputStream(super.getOutputStream()) {
                @Override
                public void write(byte[] bytes, int offset, int length) throws IOException {
                    // Before the write: a thread the machine's load holds back after it would see the answer as instant.
                    if (firstWriteNanos == 0) {
                        firstWriteNanos = System.nanoTime();
                    }
                    out.write(bytes, offset, length);
                }
            };
        }

        @Override
        public InputStream getInputStream() throws IOException {
            return new FilterInputStream(super.getInputStream()) {
                @Override
                public int read(byte[] bytes, int offset, int length) throws IOException {
                    int read = in.read(bytes, offset, length);
                    if (read > 0 && firstAnswerNanos == 0) {
                        firstAnswerNanos = System.nanoTime();
                    }
                    return read;
                }
            };
        }
    }

    private static final class TrustAny implements X509TrustManager {

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
