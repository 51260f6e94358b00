package io.h2bench.sampler;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Apache httpd 2.4 as a forward proxy (mod_proxy_http, {@code ProxyRequests On}) on 127.0.0.1,
 * a free port, that carries an h2c Upgrade to one origin and tunnels the connection after its 101,
 * {@code CONNECT} to any unprivileged port (mod_proxy_connect), Basic proxy authentication for one user
 * or none. Squid drops {@code Upgrade}; Apache drops it too by
 * default (its workers upgrade only to WebSocket), and given {@code upgrade=h2c} for the origin it
 * still strips {@code HTTP2-Settings}, which the request's {@code Connection} names, so the origin
 * refuses (Jetty: 400): the edit takes the name out of {@code Connection} before the proxy reads it.
 * Its access log: the client's port, the request line, the status and the proxy user ("-" for none).
 */
final class ApacheForwardProxy implements ForwardProxy {

    private static final Path MODULES = Path.of("/usr/lib/apache2/modules");

    private final Path dir;
    private final Process process;
    private final int port;

    private ApacheForwardProxy(Path dir, Process process, int port) {
        this.dir = dir;
        this.process = process;
        this.port = port;
    }

    /** Starts Apache; the test is skipped where it is not installed. {@code user} null: no authentication. */
    static ApacheForwardProxy start(int originPort, String user, String password) throws Exception {
        assumeThat(ApacheConfig.APACHE).as("apache2 (Debian package apache2)").exists();
        Path dir = Files.createTempDirectory("h2bench-apache-proxy");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        int port = LocalDaemon.freePort();
        StringBuilder conf = new StringBuilder("ServerRoot ").append(dir).append("\nServerName 127.0.0.1\n")
                .append("Listen 127.0.0.1:").append(port).append('\n');
        for (String module : List.of("mpm_event", "authz_core", "authn_core", "authn_file", "auth_basic", "authz_user", "proxy",
                "proxy_http", "proxy_connect", "headers")) {
            conf.append("LoadModule ").append(module).append("_module ").append(MODULES.resolve("mod_" + module + ".so")).append('\n');
        }
        if ("root".equals(System.getProperty("user.name"))) {
            conf.append("User www-data\nGroup www-data\n");
        }
        conf.append("StartServers 1\nServerLimit 1\nThreadsPerChild 8\nMaxRequestWorkers 8\n")
                .append("PidFile ").append(dir.resolve("httpd.pid")).append("\nDefaultRuntimeDir ").append(dir).append('\n')
                .append("ErrorLog ").append(dir.resolve("error.log")).append("\nLogLevel warn\n")
                .append("LogFormat \"%{remote}p %r %>s %u\" proxied\nCustomLog ").append(dir.resolve("access.log")).append(" proxied\n")
                .append("RequestHeader edit Connection \"(?i),\\s*HTTP2-Settings\" \"\" early\n")
                .append("ProxyRequests On\nAllowCONNECT 1024-65535\n")
                .append("<Proxy \"http://127.0.0.1:").append(originPort).append("\">\n  ProxySet upgrade=h2c\n</Proxy>\n")
                .append(user == null ? "<Proxy \"*\">\n  Require all granted\n</Proxy>\n" : authentication(dir, user, password));
        Files.writeString(dir.resolve("httpd.conf"), conf);
        Process process = new ProcessBuilder(ApacheConfig.APACHE.toString(), "-f", dir.resolve("httpd.conf").toString(), "-DFOREGROUND")
                .redirectErrorStream(true).redirectOutput(dir.resolve("apache.out").toFile()).start();
        ApacheForwardProxy proxy = new ApacheForwardProxy(dir, process, port);
        LocalDaemon.awaitListening("apache2", process, port, dir.resolve("apache.out"));
        return proxy;
    }

    private static String authentication(Path dir, String user, String password) throws Exception {
        Path passwd = dir.resolve("passwd");
        Files.writeString(passwd, user + ":" + SquidProxy.apr1(password) + "\n");
        Files.setPosixFilePermissions(passwd, PosixFilePermissions.fromString("rw-r--r--"));
        return "<Proxy \"*\">\n  AuthType Basic\n  AuthName h2bench\n  AuthBasicProvider file\n  AuthUserFile " + passwd
                + "\n  Require valid-user\n</Proxy>\n";
    }

    @Override
    public int port() {
        return port;
    }

    /** The access log so far: the client's port, the request line, the status and the proxy user; a tunnel's when it closes. */
    @Override
    public String accessLog() throws IOException {
        Path log = dir.resolve("access.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Each request the proxy was brought, as "GET 407 -" or "GET 101 tester", waiting up to 10 s for {@code expected}. */
    List<String> awaitRequests(int expected) throws Exception {
        List<String> requests = List.of();
        for (int attempt = 0; attempt < 100 && requests.size() < expected; attempt++) {
            requests = requests();
            if (requests.size() < expected) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        return requests;
    }

    private List<String> requests() throws IOException {
        Path log = dir.resolve("access.log");
        // port, method, target, version, status, user: the start-up probe's empty request line is left out
        return Files.exists(log) ? Files.readAllLines(log).stream().map(line -> line.split(" "))
                .filter(parts -> parts.length == 6).map(parts -> parts[1] + " " + parts[4] + " " + parts[5]).toList() : List.of();
    }

    @Override
    public void close() throws Exception {
        LocalDaemon.stop(process, dir);
    }
}
