package io.h2bench.sampler;

import io.h2bench.sampler.InteropCell.PostReply;
import java.util.List;

/**
 * Debian's Apache httpd 2.4 (mod_http2) in the interoperability matrix, configured by {@link ApacheConfig}:
 * HTTP/1.1 and h2c both ways on a cleartext port, HTTP/1.1 and h2 over TLS on another.
 */
class ApacheInteropTest extends InteropMatrix {

    private OutsideServer apache;
    private int cleartext;
    private int tls;

    @Override
    String server() {
        return "apache";
    }

    @Override
    void require() {
        OutsideServer.require(ApacheConfig.APACHE, "apache2");
    }

    @Override
    void start(InteropSite site) throws Exception {
        int[] ports = OutsideServer.freePorts(2);
        cleartext = ports[0];
        tls = ports[1];
        apache = OutsideServer.start(ApacheConfig.command(site, "127.0.0.1", cleartext, tls), site.directory, tls,
                site.directory.resolve("apache2.out"));
    }

    @Override
    void stop() throws Exception {
        if (apache != null) {
            apache.close();
        }
    }

    /**
     * Now that every new connection of the h2c Upgrade mode is upgraded (not only a user's first), the
     * cell meets mod_http2's limits on upgraded connections in every run: it upgrades no request with a
     * body, so the POST goes over HTTP/1.1 (stated); it upgrades no request it answers with a redirect;
     * and it ends each upgraded connection after one response. See interop.md, note 4.
     */
    @Override
    String knownLimit(InteropMode mode) {
        return mode == InteropMode.H2C_UPGRADE ? "POST: HTTP/1.1 (stated: " : null;
    }

    @Override
    InteropCell.Target target(InteropMode mode) {
        List<String> codings = List.of("gzip", "br");
        return switch (mode) {
            case H1, SCHEME_HTTP, H2C, H2C_UPGRADE -> offered(server(), cleartext, mode, codings, PostReply.ECHO).withRoutes();
            case H1_TLS, H2, SCHEME_HTTPS -> offered(server(), tls, mode, codings, PostReply.ECHO).withRoutes();
            case H3, H3_ALT_SVC -> notOffered(server(), tls, mode, "Apache httpd has no HTTP/3 (no QUIC in 2.4)");
        };
    }
}
