package io.h2bench.sampler;

import io.h2bench.sampler.InteropCell.PostReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Debian's Caddy 2.6 in the interoperability matrix: HTTP/1.1 and h2c (Go's, both ways) on a
 * cleartext port, HTTP/1.1, h2 and h3 (quic-go, advertised by Alt-Svc) over TLS on another, zstd and
 * gzip ({@code encode}), and {@code respond} with the request's body as the POST's echo.
 */
class CaddyInteropTest extends InteropMatrix {

    private static final Path CADDY = Path.of("/usr/bin/caddy");
    private OutsideServer caddy;
    private int cleartext;
    private int tls;

    @Override
    String server() {
        return "caddy";
    }

    @Override
    void require() {
        OutsideServer.require(CADDY, "caddy");
    }

    @Override
    void start(InteropSite site) throws Exception {
        int[] ports = OutsideServer.freePorts(2);
        cleartext = ports[0];
        tls = ports[1];
        Path config = site.directory.resolve("Caddyfile");
        Files.writeString(config, caddyfile(site));
        caddy = OutsideServer.start(List.of(CADDY.toString(), "run", "--config", config.toString(), "--adapter", "caddyfile"),
                site.directory, tls, site.directory.resolve("caddy.log"));
    }

    /**
     * No admin endpoint, no automatic certificates; a client that connects to an IP address sends no
     * SNI, so {@code default_sni} picks h2bench's certificate (given by path); "h2c" only works beside
     * "h2" in 2.6.2's list.
     */
    private String caddyfile(InteropSite site) {
        String handlers = "\troot * " + site.htdocs + "\n\tencode zstd gzip\n"
                + "\trespond /echo {http.request.body} 200\n" + routes() + "\tfile_server\n";
        return "{\n\tadmin off\n\tauto_https off\n\tdefault_sni localhost\n\tstorage file_system " + site.directory.resolve("data") + "\n"
                + "\tservers 127.0.0.1:" + cleartext + " {\n\t\tprotocols h1 h2 h2c\n\t}\n"
                + "\tservers 127.0.0.1:" + tls + " {\n\t\tprotocols h1 h2 h3\n\t}\n"
                + "\tlog {\n\t\toutput discard\n\t}\n}\n"
                + "http://127.0.0.1:" + cleartext + " {\n\tbind 127.0.0.1\n" + handlers + "}\n"
                + "https://127.0.0.1:" + tls + " {\n\tbind 127.0.0.1\n\ttls " + site.certificate + " " + site.key + "\n" + handlers + "}\n";
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

    @Override
    void stop() throws Exception {
        if (caddy != null) {
            caddy.close();
        }
    }

    /**
     * Over an upgraded connection Caddy 2.6.2 at times (1 run in 5 here) begins a dynamic table size
     * update in the middle of a response's header block, which RFC 7541 4.2 allows only at a block's
     * start, so the sampler's HPACK decoder refuses it; see interop.md for why (a race in Go's
     * HTTP/2 server between the client's SETTINGS and the upgraded response) and the workaround.
     */
    @Override
    String knownLimit(InteropMode mode) {
        return mode == InteropMode.H2C_UPGRADE ? "compression_error/invalid_hpack_block" : null;
    }

    @Override
    InteropCell.Target target(InteropMode mode) {
        List<String> codings = List.of("zstd", "gzip");
        return switch (mode) {
            case H1, SCHEME_HTTP, H2C, H2C_UPGRADE -> offered(server(), cleartext, mode, codings, PostReply.ECHO).withRoutes();
            case H1_TLS, H2, H3, H3_ALT_SVC, SCHEME_HTTPS -> offered(server(), tls, mode, codings, PostReply.ECHO).withRoutes();
        };
    }
}
