package io.h2bench.sampler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Debian's Caddy 2.6 serving an {@link InteropSite} on one address: HTTP/1.1 and h2c (Go's, both
 * ways) on a cleartext port, HTTP/1.1, h2 and h3 (quic-go, advertised by Alt-Svc) over TLS on
 * another, zstd and gzip ({@code encode}), {@code respond} with the request's body as the POST's echo,
 * and the site's redirect and cookie routes. Used on loopback by the matrix and behind a kernel link
 * by the phase comparison with curl.
 */
final class CaddyConfig {

    static final Path CADDY = Path.of("/usr/bin/caddy");

    private CaddyConfig() {
    }

    /** Writes the Caddyfile into the site's directory and returns the command that runs Caddy with it. */
    static List<String> command(InteropSite site, String host, int cleartext, int tls) throws IOException {
        Path config = site.directory.resolve("Caddyfile");
        Files.writeString(config, caddyfile(site, host, cleartext, tls));
        return List.of(CADDY.toString(), "run", "--config", config.toString(), "--adapter", "caddyfile");
    }

    /**
     * No admin endpoint, no automatic certificates; a client that connects to an IP address sends no
     * SNI, so {@code default_sni} picks h2bench's certificate (given by path); "h2c" only works beside
     * "h2" in 2.6.2's list.
     */
    private static String caddyfile(InteropSite site, String host, int cleartext, int tls) {
        String handlers = "\troot * " + site.htdocs + "\n\tencode zstd gzip\n"
                + "\trespond /echo {http.request.body} 200\n" + routes() + "\tfile_server\n";
        return "{\n\tadmin off\n\tauto_https off\n\tdefault_sni localhost\n\tstorage file_system " + site.directory.resolve("data") + "\n"
                + "\tservers " + host + ":" + cleartext + " {\n\t\tprotocols h1 h2 h2c\n\t}\n"
                + "\tservers " + host + ":" + tls + " {\n\t\tprotocols h1 h2 h3\n\t}\n"
                + "\tlog {\n\t\toutput discard\n\t}\n}\n"
                + "http://" + host + ":" + cleartext + " {\n\tbind " + host + "\n" + handlers + "}\n"
                + "https://" + host + ":" + tls + " {\n\tbind " + host + "\n\ttls " + site.certificate + " " + site.key + "\n" + handlers + "}\n";
    }

    /** InteropSite's redirect chain and cookie routes. */
    private static String routes() {
        return "\tredir " + InteropSite.REDIRECT + " " + InteropSite.REDIRECTED + " 302\n"
                + "\tredir " + InteropSite.REDIRECTED + " " + InteropSite.REDIRECT_END + " 301\n"
                + "\theader " + InteropSite.SET_COOKIE + " Set-Cookie \"" + InteropSite.COOKIE_NAME + "="
                + InteropSite.COOKIE_VALUE + "; Path=/\"\n"
                + "\t@nocookie {\n\t\tpath " + InteropSite.NEEDS_COOKIE + "\n\t\tnot header_regexp Cookie "
                + InteropSite.COOKIE_REGEX + "\n\t}\n\trespond @nocookie 403\n";
    }
}
