package io.h2bench.sampler;

import io.h2bench.sampler.InteropCell.PostReply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * ngtcp2's example server {@code gtlsserver} (Debian's ngtcp2-server: GnuTLS, nghttp3) in the
 * interoperability matrix: HTTP/3 only, on UDP, serving the files to any method (a POST gets the file).
 */
class Ngtcp2InteropTest extends InteropMatrix {

    private static final Path GTLSSERVER = Path.of("/usr/sbin/gtlsserver");
    private OutsideServer gtlsserver;
    private int port;

    @Override
    String server() {
        return "gtlsserver";
    }

    @Override
    void require() {
        OutsideServer.require(GTLSSERVER, "ngtcp2-server");
    }

    @Override
    void start(InteropSite site) throws Exception {
        port = OutsideServer.freePorts(1)[0];
        gtlsserver = OutsideServer.startUdp(List.of(GTLSSERVER.toString(), "--quiet", "--htdocs=" + site.htdocs, "127.0.0.1",
                Integer.toString(port), site.key.toString(), site.certificate.toString()), site.directory, port,
                site.directory.resolve("gtlsserver.out"));
    }

    @Override
    void stop() throws Exception {
        if (gtlsserver != null) {
            gtlsserver.close();
        }
    }

    @Override
    InteropCell.Target target(InteropMode mode) {
        return switch (mode) {
            case H3 -> new InteropCell.Target(server(), port, mode, null, List.of(), PostReply.FILE, Map.of(), false);
            case H3_ALT_SVC -> notOffered(server(), port, mode, "gtlsserver has no TCP listener to hear Alt-Svc on");
            default -> notOffered(server(), port, mode, "gtlsserver speaks HTTP/3 only (UDP): nothing listens on TCP");
        };
    }
}
