package io.h2bench.sampler;

import io.h2bench.sampler.InteropCell.PostReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Debian's h2o 2.2.5 in the interoperability matrix: HTTP/1.1 and h2c (by prior knowledge, which it
 * recognises from the preface, and by Upgrade, {@code http1-upgrade-to-http2} being on by default)
 * on a cleartext port, HTTP/1.1 and h2 over TLS on another, gzip and br ({@code compress: ON}), and
 * an mruby handler that echoes the POST.
 */
class H2oInteropTest extends InteropMatrix {

    private static final Path H2O = Path.of("/usr/bin/h2o");
    private OutsideServer h2o;
    private int cleartext;
    private int tls;

    @Override
    String server() {
        return "h2o";
    }

    @Override
    void require() {
        OutsideServer.require(H2O, "h2o");
    }

    @Override
    void start(InteropSite site) throws Exception {
        int[] ports = OutsideServer.freePorts(2);
        cleartext = ports[0];
        tls = ports[1];
        Path config = site.directory.resolve("h2o.conf");
        Files.writeString(config, config(site));
        h2o = OutsideServer.start(List.of(H2O.toString(), "-c", config.toString()), site.directory, tls,
                site.directory.resolve("h2o.out"));
    }

    /** No pid file: h2o writes it after it has become www-data, which may not write the test's directory. */
    private String config(InteropSite site) {
        return ("root".equals(System.getProperty("user.name")) ? "user: www-data\n" : "")
                + "error-log: " + site.directory.resolve("error.log") + "\n"
                + "listen:\n  host: 127.0.0.1\n  port: " + cleartext + "\n"
                + "listen:\n  host: 127.0.0.1\n  port: " + tls + "\n  ssl:\n"
                + "    certificate-file: " + site.certificate + "\n    key-file: " + site.key + "\n"
                // h2bench's certificate names no OCSP responder: no stapling, no fetch-ocsp-response child
                + "    ocsp-update-interval: 0\n"
                + "compress: ON\n"
                + "hosts:\n  default:\n    paths:\n"
                + "      /echo:\n        mruby.handler: |\n"
                + "          Proc.new do |env|\n"
                + "            [200, {\"content-type\" => \"application/octet-stream\"}, [env[\"rack.input\"].read]]\n"
                + "          end\n"
                + "      /:\n" + routes() + "        file.dir: " + site.htdocs + "\n";
    }

    /**
     * InteropSite's redirect chain and cookie routes in one mruby handler before the files: status 399
     * hands every other path on to file.dir (h2o's documented delegation).
     */
    private static String routes() {
        String cookie = InteropSite.COOKIE_NAME + "=" + InteropSite.COOKIE_VALUE;
        return "        mruby.handler: |\n"
                + "          Proc.new do |env|\n"
                + "            case env[\"PATH_INFO\"]\n"
                + "            when \"" + InteropSite.REDIRECT + "\" then [302, {\"location\" => \"" + InteropSite.REDIRECTED + "\"}, []]\n"
                + "            when \"" + InteropSite.REDIRECTED + "\" then [301, {\"location\" => \"" + InteropSite.REDIRECT_END + "\"}, []]\n"
                + "            when \"" + InteropSite.SET_COOKIE + "\" then [200, {\"set-cookie\" => \"" + cookie + "; Path=/\"}, [\"cookie set\\n\"]]\n"
                + "            when \"" + InteropSite.NEEDS_COOKIE + "\"\n"
                + "              sent = env[\"HTTP_COOKIE\"].to_s.split(\";\").map { |part| part.strip }\n"
                + "              sent.include?(\"" + cookie + "\") ? [200, {}, [\"cookie seen\\n\"]] : [403, {}, [\"no cookie\\n\"]]\n"
                + "            else [399, {}, []]\n"
                + "            end\n"
                + "          end\n";
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
