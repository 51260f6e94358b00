package io.h2bench.sampler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Debian's Apache httpd 2.4 (mod_http2) serving an {@link InteropSite} on one address: HTTP/1.1 and
 * h2c both ways on a cleartext port, HTTP/1.1 and h2 over TLS (mod_ssl) on another, gzip and br
 * (mod_deflate, mod_brotli), a CGI script that echoes the POST, and the site's redirect and cookie
 * routes; what {@code a2enmod http2 ssl deflate brotli} would give, with one event MPM child. Used on
 * loopback by the matrix and behind a kernel link by the phase comparison with curl.
 * <p>
 * mod_reflector, the obvious echo, answers every HTTP/2 request with an empty body (curl and nghttp
 * get 0 bytes too), so it cannot be the check.
 */
final class ApacheConfig {

    static final Path APACHE = Path.of("/usr/sbin/apache2");
    private static final Path MODULES = Path.of("/usr/lib/apache2/modules");

    private ApacheConfig() {
    }

    /** Writes the configuration and the echo script into the site's directory and returns the command that runs Apache with it. */
    static List<String> command(InteropSite site, String host, int cleartext, int tls) throws IOException {
        Path echo = Files.createDirectories(site.directory.resolve("cgi")).resolve("echo");
        Files.writeString(echo, "#!/bin/sh\nprintf 'Content-Type: application/octet-stream\\r\\n\\r\\n'\nexec cat\n");
        Files.setPosixFilePermissions(echo, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path config = site.directory.resolve("httpd.conf");
        Files.writeString(config, config(site, host, cleartext, tls));
        return List.of(APACHE.toString(), "-f", config.toString(), "-DFOREGROUND");
    }

    private static String config(InteropSite site, String host, int cleartext, int tls) {
        StringBuilder config = new StringBuilder();
        config.append("ServerRoot ").append(site.directory).append('\n')
                .append("Listen ").append(host).append(':').append(cleartext).append('\n')
                .append("Listen ").append(host).append(':').append(tls).append(" https\n");
        for (String module : List.of("mpm_event", "authz_core", "mime", "alias", "cgid", "http2", "ssl", "socache_shmcb", "deflate",
                "brotli", "headers", "rewrite")) {
            config.append("LoadModule ").append(module).append("_module ").append(MODULES.resolve("mod_" + module + ".so")).append('\n');
        }
        if ("root".equals(System.getProperty("user.name"))) {
            config.append("User www-data\nGroup www-data\n");
        }
        return config.append("ServerName ").append(host).append('\n')
                .append("StartServers 1\nServerLimit 1\nThreadsPerChild 16\nMaxRequestWorkers 16\n")
                .append("MinSpareThreads 1\nMaxSpareThreads 16\n")
                .append("PidFile ").append(site.directory.resolve("httpd.pid")).append('\n')
                .append("DefaultRuntimeDir ").append(site.directory).append('\n')
                .append("ErrorLog ").append(site.directory.resolve("apache-error.log")).append('\n')
                .append("LogLevel warn\n")
                .append("TypesConfig /etc/mime.types\n")
                .append("SSLSessionCache shmcb:").append(site.directory.resolve("ssl_scache")).append("(512000)\n")
                .append("DocumentRoot ").append(site.htdocs).append('\n')
                .append("<Directory ").append(site.htdocs).append(">\n  Require all granted\n").append(routes())
                .append("</Directory>\n")
                .append("<Files text.txt>\n  SetOutputFilter BROTLI_COMPRESS;DEFLATE\n</Files>\n")
                .append("ScriptSock ").append(site.directory.resolve("cgid.sock")).append('\n')
                .append("ScriptAlias /echo ").append(site.directory.resolve("cgi/echo")).append('\n')
                .append("Protocols h2c http/1.1\n")
                .append("<VirtualHost ").append(host).append(':').append(tls).append(">\n")
                .append("  SSLEngine on\n  SSLCertificateFile ").append(site.certificate).append('\n')
                .append("  SSLCertificateKeyFile ").append(site.key).append('\n')
                .append("  Protocols h2 http/1.1\n</VirtualHost>\n")
                .toString();
    }

    /** InteropSite's redirect chain and cookie routes, in the files' directory (so both hosts have them). */
    private static String routes() {
        return "  RedirectMatch 302 ^" + InteropSite.REDIRECT + "$ " + InteropSite.REDIRECTED + "\n"
                + "  RedirectMatch 301 ^" + InteropSite.REDIRECTED + "$ " + InteropSite.REDIRECT_END + "\n"
                + "  <Files " + InteropSite.SET_COOKIE.substring(1) + ">\n    Header always set Set-Cookie \""
                + InteropSite.COOKIE_NAME + "=" + InteropSite.COOKIE_VALUE + "; Path=/\"\n  </Files>\n"
                + "  RewriteEngine On\n  RewriteCond %{HTTP_COOKIE} !" + InteropSite.COOKIE_REGEX + "\n"
                + "  RewriteRule ^" + InteropSite.NEEDS_COOKIE.substring(1) + "$ - [F]\n";
    }
}
