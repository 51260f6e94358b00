package io.h2bench.sampler;

import io.h2bench.sampler.InteropCell.PostReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Debian's nginx 1.22 in the interoperability matrix: HTTP/1.1 and h2c by prior knowledge on two
 * cleartext ports (1.22 cannot tell them apart on one), HTTP/1.1 and h2 over TLS on a third, gzip.
 */
class NginxInteropTest extends InteropMatrix {

    private static final Path NGINX = Path.of("/usr/sbin/nginx");
    private OutsideServer nginx;
    private int h1;
    private int h2c;
    private int tls;

    @Override
    String server() {
        return "nginx";
    }

    @Override
    void require() {
        OutsideServer.require(NGINX, "nginx");
    }

    @Override
    void start(InteropSite site) throws Exception {
        int[] ports = OutsideServer.freePorts(3);
        h1 = ports[0];
        h2c = ports[1];
        tls = ports[2];
        Path temp = Files.createDirectories(site.directory.resolve("nginx-temp"));
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path config = site.directory.resolve("nginx.conf");
        Files.writeString(config, config(site, temp));
        nginx = OutsideServer.start(List.of(NGINX.toString(), "-p", site.directory.toString(), "-c", config.toString(),
                "-e", site.directory.resolve("error.log").toString()), site.directory, tls, site.directory.resolve("nginx.out"));
    }

    private String config(InteropSite site, Path temp) {
        String root = "    root " + site.htdocs + ";\n"
                // nginx has no echo: it answers with the length it read, having discarded the body
                + "    location = /echo { client_max_body_size 1m; return 200 \"received $content_length bytes\\n\"; }\n"
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
                + "  server {\n    listen 127.0.0.1:" + h1 + ";\n    listen 127.0.0.1:" + tls + " ssl http2;\n"
                + "    ssl_certificate " + site.certificate + ";\n    ssl_certificate_key " + site.key + ";\n" + root + "  }\n"
                + "  server {\n    listen 127.0.0.1:" + h2c + " http2;\n" + root + "  }\n"
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

    @Override
    void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
    }

    @Override
    InteropCell.Target target(InteropMode mode) {
        List<String> gzip = List.of("gzip");
        return switch (mode) {
            case H1, SCHEME_HTTP -> offered(server(), h1, mode, gzip, PostReply.LENGTH).withRoutes();
            case H1_TLS, H2, SCHEME_HTTPS -> offered(server(), tls, mode, gzip, PostReply.LENGTH).withRoutes();
            case H2C -> offered(server(), h2c, mode, gzip, PostReply.LENGTH).withRoutes();
            case H2C_UPGRADE -> notOffered(server(), h1, mode, "nginx implements no h2c Upgrade (ngx_http_v2_module: "
                    + "prior knowledge only on a cleartext 'listen ... http2')");
            case H3, H3_ALT_SVC -> notOffered(server(), tls, mode, "nginx 1.22 has no QUIC (HTTP/3 came in 1.25.0)");
        };
    }
}
