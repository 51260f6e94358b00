package io.h2bench.sampler;

import io.h2bench.sampler.InteropCell.PostReply;
import java.util.List;

/** Debian's nginx 1.22 in the interoperability matrix, on loopback ({@link NginxConfig}). */
class NginxInteropTest extends InteropMatrix {

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
        OutsideServer.require(NginxConfig.NGINX, "nginx");
    }

    @Override
    void start(InteropSite site) throws Exception {
        int[] ports = OutsideServer.freePorts(3);
        h1 = ports[0];
        h2c = ports[1];
        tls = ports[2];
        nginx = OutsideServer.start(NginxConfig.command(site, "127.0.0.1", h1, h2c, tls), site.directory, tls,
                site.directory.resolve("nginx.out"));
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
