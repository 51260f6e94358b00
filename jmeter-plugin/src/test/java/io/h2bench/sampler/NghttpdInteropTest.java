package io.h2bench.sampler;

import io.h2bench.sampler.InteropCell.PostReply;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * nghttp2's nghttpd (Debian's nghttp2-server) in the interoperability matrix: HTTP/2 only, h2 over
 * TLS in one process and h2c by prior knowledge in another ({@code --no-tls} is for the whole
 * server), {@code --echo-upload} for the POST, and a push of /100B.bin with every /44kB.bin.
 */
class NghttpdInteropTest extends InteropMatrix {

    private static final Path NGHTTPD = Path.of("/usr/sbin/nghttpd");
    private static final Map<String, String> PUSHES = Map.of("/44kB.bin", "/100B.bin");
    private OutsideServer cleartextServer;
    private OutsideServer tlsServer;
    private int cleartext;
    private int tls;

    @Override
    String server() {
        return "nghttpd";
    }

    @Override
    void require() {
        OutsideServer.require(NGHTTPD, "nghttp2-server");
    }

    @Override
    void start(InteropSite site) throws Exception {
        int[] ports = OutsideServer.freePorts(2);
        cleartext = ports[0];
        tls = ports[1];
        List<String> common = List.of(NGHTTPD.toString(), "--htdocs=" + site.htdocs, "--echo-upload", "--push=/44kB.bin=/100B.bin");
        cleartextServer = OutsideServer.start(concat(common, "--no-tls", Integer.toString(cleartext)), site.directory, cleartext,
                site.directory.resolve("nghttpd-h2c.out"));
        tlsServer = OutsideServer.start(concat(common, Integer.toString(tls), site.key.toString(), site.certificate.toString()),
                site.directory, tls, site.directory.resolve("nghttpd-h2.out"));
    }

    private static List<String> concat(List<String> first, String... rest) {
        return Stream.concat(first.stream(), Arrays.stream(rest)).toList();
    }

    @Override
    void stop() throws Exception {
        for (OutsideServer server : new OutsideServer[] {cleartextServer, tlsServer}) {
            if (server != null) {
                server.close();
            }
        }
    }

    @Override
    InteropCell.Target target(InteropMode mode) {
        String onlyHttp2 = "nghttpd speaks HTTP/2 only: no HTTP/1.1, no h2c Upgrade (nghttpd(1))";
        return switch (mode) {
            case H2, SCHEME_HTTPS -> new InteropCell.Target(server(), tls, mode, null, List.of(), PostReply.ECHO, PUSHES, false);
            case H2C -> new InteropCell.Target(server(), cleartext, mode, null, List.of(), PostReply.ECHO, PUSHES, false);
            case H1, H2C_UPGRADE, SCHEME_HTTP -> notOffered(server(), cleartext, mode, onlyHttp2);
            case H1_TLS -> notOffered(server(), tls, mode, onlyHttp2 + "; its ALPN offers h2 alone");
            case H3, H3_ALT_SVC -> notOffered(server(), tls, mode, "nghttpd has no HTTP/3 (nghttp2 is HTTP/2 only)");
        };
    }
}
