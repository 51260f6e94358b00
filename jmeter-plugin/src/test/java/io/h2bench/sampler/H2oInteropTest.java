package io.h2bench.sampler;

import io.h2bench.sampler.InteropCell.PostReply;
import java.util.List;

/**
 * Debian's h2o 2.2.5 in the interoperability matrix, configured by {@link H2oConfig}: HTTP/1.1 and
 * h2c both ways on a cleartext port, HTTP/1.1 and h2 over TLS on another.
 */
class H2oInteropTest extends InteropMatrix {

    private OutsideServer h2o;
    private int cleartext;
    private int tls;

    @Override
    String server() {
        return "h2o";
    }

    @Override
    void require() {
        OutsideServer.require(H2oConfig.H2O, "h2o");
    }

    @Override
    void start(InteropSite site) throws Exception {
        int[] ports = OutsideServer.freePorts(2);
        cleartext = ports[0];
        tls = ports[1];
        h2o = OutsideServer.start(H2oConfig.command(site, "127.0.0.1", cleartext, tls), site.directory, tls,
                site.directory.resolve("h2o.out"));
    }

    @Override
    void stop() throws Exception {
        if (h2o != null) {
            h2o.close();
        }
    }

    @Override
    InteropCell.Target target(InteropMode mode) {
        List<String> codings = List.of("gzip", "br");
        return switch (mode) {
            case H1, SCHEME_HTTP, H2C, H2C_UPGRADE -> offered(server(), cleartext, mode, codings, PostReply.ECHO).withRoutes();
            case H1_TLS, H2, SCHEME_HTTPS -> offered(server(), tls, mode, codings, PostReply.ECHO).withRoutes();
            case H3, H3_ALT_SVC -> notOffered(server(), tls, mode, "h2o 2.2.5 has no HTTP/3 (QUIC came with h2o 2.3's quicly)");
        };
    }
}
