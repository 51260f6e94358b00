package io.h2bench.sampler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Debian's nginx 1.22 serving an {@link InteropSite} on one address: HTTP/1.1 on one cleartext port,
 * h2c by prior knowledge on another (1.22 cannot tell them apart on one), HTTP/1.1 and h2 over TLS
 * on a third, gzip, and the site's redirect and cookie routes. Used on loopback by the matrix and
 * behind a kernel link by the phase comparison with curl.
 */
final class NginxConfig {

    static final Path NGINX = Path.of("/usr/sbin/nginx");
    /** /echo's answer, given once the whole request body has been read. */
    static final String ECHO_AFTER_BODY = "/echo-after-body";

    private NginxConfig() {
    }

    /** Writes the configuration into the site's directory and returns the command that runs nginx with it. */
    static List<String> command(InteropSite site, String host, int h1, int h2c, int tls) throws IOException {
        Path temp = Files.createDirectories(site.directory.resolve("nginx-temp"));
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path config = site.directory.resolve("nginx.conf");
        Files.writeString(config, config(site, temp, host, h1, h2c, tls));
        return List.of(NGINX.toString(), "-p", site.directory.toString(), "-c", config.toString(),
                "-e", site.directory.resolve("error.log").toString());
    }

    private static String config(InteropSite site, Path temp, String host, int h1, int h2c, int tls) {
        String root = "    root " + site.htdocs + ";\n"
                // a proxy's credentials that reached the origin come back in a header (none: no header)
                + "    add_header X-Proxy-Authorization-Seen $http_proxy_authorization always;\n"
                // nginx has no echo: it answers with the length it read, having discarded the body
                + "    location = /echo { client_max_body_size 1m; return 200 \"received $content_length bytes\\n\"; }\n"
                // the same answer once nginx has read the whole body (its proxy reads it before it asks /echo): /echo
                // answers an h2 upload before it has come, then resets the stream (NO_ERROR), which curl 7.88 takes for
                // a failure (exit 92) when it has body left to send
                + "    location = " + ECHO_AFTER_BODY + " { client_max_body_size 1m; client_body_buffer_size 1m;"
                + " proxy_pass http://" + host + ":" + h1 + "/echo; }\n"
                + routes();
        return ("root".equals(System.getProperty("user.name")) ? "user www-data;\n" : "")
                + "daemon off;\nworker_processes 1;\npid " + site.directory.resolve("nginx.pid") + ";\n"
                + "error_log " + site.directory.resolve("error.log") + " warn;\n"
                + "events { worker_connections 256; }\n"
                + "http {\n  access_log off;\n"
                + "  client_body_temp_path " + temp.resolve("body") + ";\n  proxy_temp_path " + temp.resolve("proxy") + ";\n"
                + "  fastcgi_temp_path " + temp.resolve("fastcgi") + ";\n  uwsgi_temp_path " + temp.resolve("uwsgi") + ";\n"
                + "  scgi_temp_path " + temp.resolve("scgi") + ";\n"
                + "  types { text/plain txt; application/octet-stream bin; }\n"
                + "  gzip on;\n  gzip_types text/plain;\n"
                + "  server {\n    listen " + host + ":" + h1 + ";\n    listen " + host + ":" + tls + " ssl http2;\n"
                + "    ssl_protocols TLSv1.2 TLSv1.3;\n    ssl_certificate " + site.certificate + ";\n    ssl_certificate_key " + site.key + ";\n" + root + "  }\n"
                + "  server {\n    listen " + host + ":" + h2c + " http2;\n" + root + "  }\n"
                + "}\n";
    }

    /** InteropSite's redirect chain and cookie routes. */
    private static String routes() {
        String cookie = InteropSite.COOKIE_NAME + "=" + InteropSite.COOKIE_VALUE;
        return "    location = " + InteropSite.REDIRECT + " { return 302 " + InteropSite.REDIRECTED + "; }\n"
                + "    location = " + InteropSite.REDIRECTED + " { return 301 " + InteropSite.REDIRECT_END + "; }\n"
                + "    location = " + InteropSite.SET_COOKIE + " { add_header Set-Cookie \"" + cookie + "; Path=/\";"
                + " return 200 \"cookie set\\n\"; }\n"
                + "    location = " + InteropSite.NEEDS_COOKIE + " { if ($cookie_" + InteropSite.COOKIE_NAME + " != \""
                + InteropSite.COOKIE_VALUE + "\") { return 403; } return 200 \"cookie seen\\n\"; }\n";
    }
}
