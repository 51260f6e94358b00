package io.h2bench.sampler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Debian's h2o 2.2.5 serving an {@link InteropSite} on one address: HTTP/1.1 and h2c (by prior
 * knowledge, which it recognises from the preface, and by Upgrade, {@code http1-upgrade-to-http2}
 * being on by default) on a cleartext port, HTTP/1.1 and h2 over TLS on another, gzip and br
 * ({@code compress: ON}), an mruby handler that echoes the POST, and the site's redirect and cookie
 * routes. Used on loopback by the matrix and behind a kernel link by the phase comparison with curl.
 */
final class H2oConfig {

    static final Path H2O = Path.of("/usr/bin/h2o");

    private H2oConfig() {
    }

    /** Writes the configuration into the site's directory and returns the command that runs h2o with it. */
    static List<String> command(InteropSite site, String host, int cleartext, int tls) throws IOException {
        Path config = site.directory.resolve("h2o.conf");
        Files.writeString(config, config(site, host, cleartext, tls));
        return List.of(H2O.toString(), "-c", config.toString());
    }

    /** No pid file: h2o writes it after it has become www-data, which may not write the test's directory. */
    private static String config(InteropSite site, String host, int cleartext, int tls) {
        return ("root".equals(System.getProperty("user.name")) ? "user: www-data\n" : "")
                + "error-log: " + site.directory.resolve("h2o-error.log") + "\n"
                + "listen:\n  host: " + host + "\n  port: " + cleartext + "\n"
                + "listen:\n  host: " + host + "\n  port: " + tls + "\n  ssl:\n"
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
}
