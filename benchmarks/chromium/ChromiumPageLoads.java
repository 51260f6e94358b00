import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * {@code java -cp CLASSES ChromiumPageLoads URL ADDRESS KEYSTORE PASSWORD LOADS GAP_MS warm|cold ROUTE CSV}
 * (CLASSES: {@code javac -d CLASSES benchmarks/chromium/*.java}, as benchmarks/chromium-h3.sh does):
 * Debian's headless Chromium loads URL (http[s]://h2bench.test:PORT/...), the name mapped to ADDRESS
 * (the kernel link's server address), driven through the DevTools protocol, with the cache disabled.
 * ROUTE is how Chromium comes to the protocol every response must then have come over:
 * <ul>
 *   <li>{@code forced} (h3): {@code --origin-to-force-quic-on} for URL's origin, QUIC alone from the
 *       first request; the certificate of KEYSTORE trusted by its pinned key.</li>
 *   <li>{@code altsvc} (h3, warm only): as a browser learns it. URL is the h2 listener's; the first load
 *       goes over h2, whose responses' {@code Alt-Svc} names the h3 listener, and Chromium is reloaded
 *       until a load comes all over h3. The certificate is trusted in an NSS database of the browser's
 *       own HOME, as a user trusts a local certificate, not by a pin; and QUIC on h2bench.test:1, an
 *       origin nothing asks for, is forced only because Chromium's QUIC refuses a certificate that
 *       does not chain to a public root unless its host is one of the forced origins' hosts.</li>
 *   <li>{@code h1}, {@code h1-tls}, {@code h2} (TCP; URL http:// for h1): QUIC off, so that an
 *       {@code Alt-Svc} does not move the page to h3; h1-tls with HTTP/2 off (ALPN offers http/1.1
 *       alone); the certificate trusted by its pinned key, as for forced.</li>
 * </ul>
 * Warm: one browser, one navigation that opens the connection, then LOADS reloads GAP_MS after the
 * previous load ended, as a user reloading. Cold: LOADS + 1 browsers, each with a fresh profile, one
 * load each. Writes one CSV row per load from the page's navigation and resource timing: load 0 is
 * the connection's (warm; in altsvc, every load before the first all over h3) or the first browser's
 * (cold), left out by the scripts that read it.
 *
 * <p>Chromium drops its connections whenever the machine's network changes (a TUN device that
 * another kernel link adds); a load whose timing shows a connection it should not have opened
 * (warm: any; cold: more than one, or more than six over HTTP/1.1), or a response not over the
 * route's protocol, is marked disturbed and made again, up to LOADS times in all.
 *
 * <p>With {@code -Dscreenshot=FILE.png} the page of the last load is captured with a list of its
 * resources and the protocol each came over appended to it; with {@code -Dnetlog=FILE.json}
 * Chromium writes its net log there.
 */
public final class ChromiumPageLoads {

    /** altsvc: the port of the origin forced onto QUIC so that its host may use a local root; nothing asks for it. */
    private static final int UNASKED_PORT = 1;
    /** altsvc: reloads after the first load, at most, for Chromium to come over to h3. */
    private static final int MAX_SWITCH_LOADS = 5;
    /** Chromium's connections per origin over HTTP/1.1: a cold load opens one to this many. */
    private static final int H1_CONNECTIONS = 6;

    /**
     * From the document's fetch to the last byte of any resource, to the end of the load event, to the
     * document's first response byte, and its connection's set-up; how many of the page's responses
     * set up a connection (connectEnd after connectStart), came over {@code protocol} (as
     * nextHopProtocol names it), and were there at all; and how many of its resources were requested
     * before the first of them had ended (Chromium's first wave).
     */
    private static String timing(String protocol) {
        return "(() => { const n = performance.getEntriesByType('navigation')[0];"
                + " if (!n || n.loadEventEnd === 0) return '';"
                + " const all = [n].concat(performance.getEntriesByType('resource'));"
                + " const last = Math.max(...all.map(e => e.responseEnd));"
                + " return [last - n.fetchStart, n.loadEventEnd - n.fetchStart, n.responseStart - n.fetchStart,"
                + " n.connectEnd - n.connectStart,"
                + " all.filter(e => e.connectEnd > e.connectStart).length,"
                + " all.filter(e => e.nextHopProtocol === '" + protocol + "').length, all.length,"
                + " (() => { const r = performance.getEntriesByType('resource'); const end = Math.min(...r.map(e => e.responseEnd));"
                + " return r.filter(e => e.requestStart > 0 && e.requestStart < end).length; })()].join(' '); })()";
    }

    /** Appends to the page every response's name and the protocol it came over, for the screenshot. */
    private static final String PROTOCOL_LIST = "(() => { const all = [performance.getEntriesByType('navigation')[0]]"
            + ".concat(performance.getEntriesByType('resource'));"
            + " const list = document.createElement('pre'); list.style.cssText = 'font: 15px monospace; background: #ffd; padding: 8px';"
            + " list.textContent = 'nextHopProtocol of the ' + all.length + ' responses (PerformanceResourceTiming):\\n'"
            + " + all.map(e => e.nextHopProtocol.padEnd(4) + ' ' + e.name).join('\\n');"
            + " document.body.prepend(list); return all.length; })()";

    public static void main(String[] args) throws Exception {
        if (args.length != 9) {
            System.err.println("usage: java ChromiumPageLoads URL ADDRESS KEYSTORE PASSWORD LOADS GAP_MS warm|cold forced|altsvc|h1|h1-tls|h2 CSV");
            System.exit(2);
        }
        URI url = URI.create(args[0]);
        Certificate certificate = certificate(Path.of(args[2]), args[3]);
        int loads = Integer.parseInt(args[4]);
        long gapMillis = Long.parseLong(args[5]);
        boolean warm = switch (args[6]) {
            case "warm" -> true;
            case "cold" -> false;
            default -> throw new IllegalArgumentException("warm or cold, was " + args[6]);
        };
        Route route = Route.of(args[7]);
        boolean altSvc = route == Route.ALTSVC;
        if (altSvc && !warm) {
            throw new IllegalArgumentException("altsvc loads are warm only: a cold load would need the origin's Alt-Svc remembered without its connections");
        }
        Path csv = Path.of(args[8]);
        Path profiles = Files.createTempDirectory("h2bench-chromium");
        List<String> rows = new ArrayList<>(List.of("mode,load,last_byte_ms,load_event_ms,first_byte_ms,connect_ms,new_connections,on_protocol,responses,disturbed,first_wave"));
        String resolverRules = "--host-resolver-rules=MAP " + url.getHost() + " " + args[1] + ", MAP * ~NOTFOUND";
        List<String> flags = new ArrayList<>();
        Map<String, String> environment = Map.of();
        if (altSvc) {
            Path home = profiles.resolve("home");
            trustInNss(home, certificate);
            environment = Map.of("HOME", home.toString());
            flags.addAll(List.of("--origin-to-force-quic-on=" + url.getHost() + ":" + UNASKED_PORT, resolverRules));
        } else {
            // QUIC ignores --ignore-certificate-errors; a pinned key is its way (and TLS over TCP's) to trust a self-signed certificate.
            flags.addAll(List.of("--ignore-certificate-errors-spki-list=" + publicKeyPin(certificate), resolverRules));
            flags.addAll(route.flags(url));
        }
        if (System.getProperty("screenshot") != null) {
            flags.add("--window-size=800,1000"); // the list and the page's first images
        }
        String script = timing(route.protocol);
        String netLog = System.getProperty("netlog");
        if (netLog != null) {
            flags.add("--log-net-log=" + Path.of(netLog).toAbsolutePath());
        }
        int disturbed = 0;
        try {
            if (warm) {
                try (HeadlessChromium browser = HeadlessChromium.start(profiles.resolve("warm"), flags, environment)) {
                    Timing first = Timing.parse(browser.load(url, false, script));
                    rows.add(first.row("warm", 0, false));
                    for (int switched = 0; altSvc && first.onProtocol() != first.responses(); switched++) {
                        if (switched == MAX_SWITCH_LOADS) {
                            throw new IOException("Chromium did not come over to h3 by Alt-Svc in " + MAX_SWITCH_LOADS + " reloads: "
                                    + String.join(" | ", rows));
                        }
                        Thread.sleep(gapMillis);
                        first = Timing.parse(browser.load(url, true, script));
                        rows.add(first.row("warm", 0, false));
                    }
                    for (int load = 1; load <= loads; ) {
                        Thread.sleep(gapMillis);
                        Timing timing = Timing.parse(browser.load(url, true, script));
                        boolean spoiled = timing.newConnections() > 0 || timing.onProtocol() != timing.responses();
                        rows.add(timing.row("warm", load, spoiled));
                        disturbed += spoiled ? 1 : 0;
                        load += spoiled && disturbed <= loads ? 0 : 1;
                    }
                    String screenshot = System.getProperty("screenshot");
                    if (screenshot != null) {
                        browser.screenshot(Path.of(screenshot), PROTOCOL_LIST);
                    }
                }
            } else {
                for (int load = 0, attempt = 0; load <= loads; attempt++) {
                    try (HeadlessChromium browser = HeadlessChromium.start(profiles.resolve("cold-" + attempt), flags, environment)) {
                        Timing timing = Timing.parse(browser.load(url, false, script));
                        boolean spoiled = !route.coldConnections(timing.newConnections()) || timing.onProtocol() != timing.responses();
                        rows.add(timing.row("cold", load, spoiled));
                        disturbed += spoiled ? 1 : 0;
                        load += spoiled && disturbed <= loads ? 0 : 1;
                    }
                    Thread.sleep(gapMillis);
                }
            }
        } finally {
            deleteTree(profiles);
        }
        Files.write(csv, rows);
        System.out.println("chromium " + args[6] + " " + args[7] + ": " + (rows.size() - 1) + " loads, " + disturbed + " disturbed, in " + csv);
    }

    private static Certificate certificate(Path keystore, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, password.toCharArray());
        }
        return store.getCertificate(store.aliases().nextElement());
    }

    /**
     * An NSS database in {@code home/.pki/nssdb} (where Debian's Chromium looks when it exists) that
     * trusts the server's certificate as a peer ({@code P,,}): it is self-signed and no CA, so Chromium
     * takes it as a trusted leaf; to Chromium it is local trust all the same, not a public root.
     */
    private static void trustInNss(Path home, Certificate certificate) throws Exception {
        Path database = Files.createDirectories(home.resolve(".pki/nssdb"));
        Path pem = home.resolve("h2bench-server.pem");
        Files.writeString(pem, "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n");
        run("certutil", "-N", "-d", "sql:" + database, "--empty-password");
        run("certutil", "-A", "-d", "sql:" + database, "-n", "h2bench test server", "-t", "P,,", "-i", pem.toString());
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    /** The browsers' profiles and HOME: none is left behind. */
    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** The base64 SHA-256 of the certificate's public key, as {@code --ignore-certificate-errors-spki-list} takes it. */
    private static String publicKeyPin(Certificate certificate) throws Exception {
        byte[] key = certificate.getPublicKey().getEncoded();
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(key));
    }

    /** How Chromium comes to a protocol (the ROUTE argument), and the protocol's name in resource timing. */
    private enum Route {
        FORCED("forced", "h3"), ALTSVC("altsvc", "h3"), H1("h1", "http/1.1"), H1_TLS("h1-tls", "http/1.1"), H2("h2", "h2");

        private final String name;
        private final String protocol;

        Route(String name, String protocol) {
            this.name = name;
            this.protocol = protocol;
        }

        static Route of(String name) {
            for (Route route : values()) {
                if (route.name.equals(name)) {
                    return route;
                }
            }
            throw new IllegalArgumentException("forced, altsvc, h1, h1-tls or h2, was " + name);
        }

        /** Besides the pin and the resolver's rules (altsvc has flags of its own). */
        List<String> flags(URI url) {
            return switch (this) {
                case FORCED -> List.of("--origin-to-force-quic-on=" + url.getHost() + ":" + url.getPort());
                // No h3 by Alt-Svc (h2bench's TLS listeners name their h3 one); h1 stays on the URL's http.
                case H1 -> List.of("--disable-quic", "--disable-features=HttpsUpgrades");
                case H1_TLS -> List.of("--disable-quic", "--disable-http2");
                case H2 -> List.of("--disable-quic");
                case ALTSVC -> throw new IllegalStateException("altsvc sets its own flags");
            };
        }

        /** Whether a cold load's count of new connections is the protocol's: one, or one to six over HTTP/1.1. */
        boolean coldConnections(int count) {
            return protocol.equals("http/1.1") ? count >= 1 && count <= H1_CONNECTIONS : count == 1;
        }
    }

    /** One load's figures, from {@link #timing}. */
    private record Timing(double lastByteMillis, double loadEventMillis, double firstByteMillis, double connectMillis,
                          int newConnections, int onProtocol, int responses, int firstWave) {

        static Timing parse(String text) {
            String[] f = text.split(" ");
            return new Timing(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]),
                    Double.parseDouble(f[3]), Integer.parseInt(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]),
                    Integer.parseInt(f[7]));
        }

        String row(String mode, int load, boolean disturbed) {
            return String.format(java.util.Locale.ROOT, "%s,%d,%.1f,%.1f,%.1f,%.1f,%d,%d,%d,%s,%d", mode, load, lastByteMillis,
                    loadEventMillis, firstByteMillis, connectMillis, newConnections, onProtocol, responses, disturbed, firstWave);
        }
    }
}
