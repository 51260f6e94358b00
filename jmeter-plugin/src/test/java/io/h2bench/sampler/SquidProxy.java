package io.h2bench.sampler;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Squid from Debian's packages on 127.0.0.1, a free port, no cache, every request in its access
 * log; optionally with Basic proxy authentication for one user, or reached over TLS ({@code https_port},
 * a self-signed certificate made by openssl). Stopped and its files removed on close.
 */
final class SquidProxy implements ForwardProxy {

    static final String SQUID = "/usr/sbin/squid";
    static final String NCSA = "/usr/lib/squid/basic_ncsa_auth";

    private final Path dir;
    private final Process process;
    private final int port;
    private final String scheme;

    private SquidProxy(Path dir, Process process, int port, String scheme) {
        this.dir = dir;
        this.process = process;
        this.port = port;
        this.scheme = scheme;
    }

    /** Starts squid; the test is skipped where squid is not installed. */
    static SquidProxy start(String user, String password) throws Exception {
        return start(user, password, false, false);
    }

    /** Starts squid reached over TLS (proxy scheme https), with no authentication. */
    static SquidProxy startOverTls() throws Exception {
        return start(null, null, true, false);
    }

    /** Starts squid with the rule of Debian's squid.conf: a CONNECT only to port 443 (else 403). */
    static SquidProxy startConnectingTo443Only() throws Exception {
        return start(null, null, false, true);
    }

    private static SquidProxy start(String user, String password, boolean overTls, boolean connectTo443Only) throws Exception {
        assumeThat(Path.of(SQUID)).as("squid (Debian package squid)").exists();
        Path dir = Files.createTempDirectory("h2bench-squid");
        // squid started as root runs as user proxy, which must write its logs here
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        int port = LocalDaemon.freePort();
        StringBuilder conf = new StringBuilder(overTls ? httpsPort(dir, port) : "http_port 127.0.0.1:" + port + "\n");
        if (connectTo443Only) {
            conf.append("acl SSL_ports port 443\nacl CONNECT method CONNECT\nhttp_access deny CONNECT !SSL_ports\n");
        }
        if (user != null) {
            Files.writeString(dir.resolve("passwd"), user + ":" + apr1(password) + "\n");
            conf.append("auth_param basic program ").append(NCSA).append(' ').append(dir.resolve("passwd")).append('\n')
                    .append("auth_param basic realm h2bench\nacl users proxy_auth REQUIRED\nhttp_access allow users\n");
        }
        conf.append("http_access ").append(user == null ? "allow" : "deny").append(" all\ncache deny all\nstrip_query_terms off\n")
                .append("pid_filename ").append(dir.resolve("squid.pid")).append('\n')
                .append("access_log stdio:").append(dir.resolve("access.log")).append('\n')
                // A second log: the client's port (its connection), method, status sent, Proxy-Authorization or "-".
                .append("logformat h2bench %>p %rm %>Hs %{Proxy-Authorization}>h\n")
                .append("access_log stdio:").append(dir.resolve("connections.log")).append(" logformat=h2bench\n")
                // A third: the method and the Upgrade header each request brought to the proxy, or "-".
                .append("logformat h2bench-upgrade %rm %{Upgrade}>h\n")
                .append("access_log stdio:").append(dir.resolve("upgrades.log")).append(" logformat=h2bench-upgrade\n")
                .append("cache_log ").append(dir.resolve("cache.log")).append('\n')
                .append("coredump_dir ").append(dir).append("\nshutdown_lifetime 0 seconds\n");
        Files.writeString(dir.resolve("squid.conf"), conf);
        Process process = new ProcessBuilder(SQUID, "-N", "-f", dir.resolve("squid.conf").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("squid.out").toFile()).start();
        SquidProxy squid = new SquidProxy(dir, process, port, overTls ? "https" : "http");
        LocalDaemon.awaitListening("squid", process, port, dir.resolve("squid.out"));
        return squid;
    }

    @Override
    public int port() {
        return port;
    }

    /** The proxy scheme: https when clients reach it over TLS. */
    String scheme() {
        return scheme;
    }

    /** The access log's lines so far (squid writes each when the request ends, a tunnel's when it closes). */
    @Override
    public String accessLog() throws IOException {
        Path log = dir.resolve("access.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * Each client connection's requests, in order, from the {@code skip}th request of the log on: method,
     * status sent and whether it carried credentials, e.g. {@code CONNECT 407 -}, {@code CONNECT 200 credentials}.
     */
    List<List<String>> requestsPerConnection(int skip) throws IOException {
        Map<String, List<String>> byPort = new LinkedHashMap<>();
        List<String[]> all = requests();
        for (String[] request : all.subList(Math.min(skip, all.size()), all.size())) {
            byPort.computeIfAbsent(request[0], port -> new ArrayList<>())
                    .add(request[1] + " " + request[2] + " " + (request[3].equals("-") ? "-" : "credentials"));
        }
        return new ArrayList<>(byPort.values());
    }

    /** Requests in the per-connection log, waiting up to 10 s for {@code expected} of them. */
    int awaitRequests(int expected) throws Exception {
        int found = 0;
        for (int attempt = 0; attempt < 100 && found < expected; attempt++) {
            found = requests().size();
            if (found < expected) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        return found;
    }

    /** Port, method, status, Proxy-Authorization of each request (not of a connection that sent none, as the start-up probe's). */
    private List<String[]> requests() throws IOException {
        Path log = dir.resolve("connections.log");
        List<String[]> requests = new ArrayList<>();
        for (String line : Files.exists(log) ? Files.readAllLines(log) : List.<String>of()) {
            String[] parts = line.split(" ");
            if (parts.length == 4 && !parts[1].equals("-")) {
                requests.add(parts);
            }
        }
        return requests;
    }

    /** Method and {@code Upgrade} header (or "-") of each request the proxy was brought, e.g. {@code GET h2c}. */
    List<String> upgradesAsked() throws IOException {
        Path log = dir.resolve("upgrades.log");
        return Files.exists(log) ? Files.readAllLines(log).stream().filter(line -> !line.startsWith("-")).toList() : List.of();
    }

    /** Access log lines containing {@code text}, waiting up to 10 s for {@code expected} of them. */
    long awaitLines(String text, long expected) throws Exception {
        long found = 0;
        for (int attempt = 0; attempt < 100 && found < expected; attempt++) {
            found = accessLog().lines().filter(line -> line.contains(text)).count();
            if (found < expected) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        return found;
    }

    /** Listens with TLS on a self-signed certificate for 127.0.0.1 (squid's GnuTLS or OpenSSL build alike). */
    private static String httpsPort(Path dir, int port) throws Exception {
        Path cert = dir.resolve("proxy-cert.pem");
        Path key = dir.resolve("proxy-key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-keyout", key.toString(), "-out", cert.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assumeThat(openssl.waitFor(30, TimeUnit.SECONDS) && openssl.exitValue() == 0).as("openssl made a certificate").isTrue();
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        return "https_port 127.0.0.1:" + port + " tls-cert=" + cert + " tls-key=" + key + "\n";
    }

    static String apr1(String password) throws Exception {
        Process openssl = new ProcessBuilder("openssl", "passwd", "-apr1", password).start();
        String hash = new String(openssl.getInputStream().readAllBytes()).trim();
        openssl.waitFor(10, TimeUnit.SECONDS);
        return hash;
    }

    @Override
    public void close() throws Exception {
        LocalDaemon.stop(process, dir);
    }
}
