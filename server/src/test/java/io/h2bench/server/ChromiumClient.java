package io.h2bench.server;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium as an outside client: one page load per cell, a local page whose script
 * {@code fetch}es every ask in turn and writes each status, body length, body SHA-256 (Web Crypto)
 * and {@code X-Request-Body-Bytes} into its DOM. The page is a file, so its requests are
 * cross-origin: {@code --disable-web-security} lets it read them, and the net log tells which
 * protocol carried each (a cross-origin resource's {@code nextHopProtocol} is empty without
 * Timing-Allow-Origin). h3 is forced with {@code --origin-to-force-quic-on}, as in {@link BrowserConnectionsTest}.
 */
final class ChromiumClient implements OutsideClient {

    private static final String HOST = "h2bench.test";
    private static final Pattern RESULT = Pattern.compile("<pre id=\"r\">(.*?)</pre>", Pattern.DOTALL);

    private final TlsMaterial tls;

    ChromiumClient(TlsMaterial tls) {
        this.tls = tls;
    }

    @Override
    public String name() {
        return "chromium";
    }

    @Override
    public void assumeInstalled() {
        HeadlessChromium.assumeInstalled();
    }

    @Override
    public String notOffered(Mode mode) {
        return mode == Mode.H2C || mode == Mode.H2C_UPGRADE
                ? "Chromium speaks HTTP/2 over TLS only, by ALPN: no h2c, by prior knowledge or by Upgrade (no browser does)"
                : null;
    }

    @Override
    public List<Exchange> fetch(Mode mode, URI base, List<Ask> asks, Path work) throws Exception {
        String origin = base.getScheme() + "://" + HOST + ":" + base.getPort();
        Path page = Files.writeString(work.resolve("asks.html"), page(origin, asks), StandardCharsets.UTF_8);
        List<String> flags = new ArrayList<>(List.of("--disable-web-security", "--ignore-certificate-errors",
                // QUIC ignores --ignore-certificate-errors; a pinned key is its way to trust a self-signed certificate.
                "--ignore-certificate-errors-spki-list=" + HeadlessChromium.publicKeyPin(tls),
                // Network time pauses while fetches are in flight: the DOM is dumped when the last one has ended.
                "--virtual-time-budget=60000"));
        if (mode == Mode.H3) {
            flags.add("--origin-to-force-quic-on=" + HOST + ":" + base.getPort());
        }
        HeadlessChromium.PageLoad load = HeadlessChromium.load(page.toUri().toString(), work.resolve("chromium"), () -> { },
                flags.toArray(String[]::new));
        List<Exchange> exchanges = new ArrayList<>();
        Matcher pre = RESULT.matcher(load.dom());
        List<String> lines = pre.find() ? List.of(pre.group(1).split("\n")) : List.of();
        for (int i = 0; i < asks.size(); i++) {
            if (i >= lines.size()) {
                exchanges.add(Exchange.failed("no result in the page's DOM (" + lines.size() + " of " + asks.size() + ")"));
                continue;
            }
            String[] fields = lines.get(i).split(" ", 7);
            if (fields.length < 3 || !fields[0].equals("ask") || !fields[1].equals(Integer.toString(i))
                    || !fields[2].equals("error") && fields.length < 6) {
                exchanges.add(Exchange.failed("page: " + lines.get(i)));
                continue;
            }
            if (fields[2].equals("error")) {
                exchanges.add(Exchange.failed(lines.get(i)));
                continue;
            }
            exchanges.add(new Exchange(fields[2], protocolOf(load, asks.get(i)), Long.parseLong(fields[3]), fields[4],
                    fields[5].isEmpty() ? null : fields[5], null));
        }
        return exchanges;
    }

    /** The protocol whose request-headers event in the net log carries the ask's method and path. */
    private static String protocolOf(HeadlessChromium.PageLoad load, Ask ask) {
        String method = "\":method: " + ask.method() + "\"";
        String path = "\":path: " + ask.path() + "\"";
        if (load.events("HTTP3_HEADERS_SENT").anyMatch(event -> event.contains(method) && event.contains(path))) {
            return "HTTP/3";
        }
        if (load.events("HTTP2_SESSION_SEND_HEADERS").anyMatch(event -> event.contains(method) && event.contains(path))) {
            return "HTTP/2";
        }
        String line = "\"line\":\"" + ask.method() + " " + ask.path() + " HTTP/1.1";
        if (load.events("HTTP_TRANSACTION_SEND_REQUEST_HEADERS").anyMatch(event -> event.contains(line))) {
            return "HTTP/1.1";
        }
        return "none in the net log";
    }

    /** A page whose script makes the asks in order and prints one line each: status, length, SHA-256, X-Request-Body-Bytes. */
    private static String page(String origin, List<Ask> asks) {
        StringBuilder list = new StringBuilder();
        for (Ask ask : asks) {
            String body = ask.body() == null ? "null" : "'" + Base64.getEncoder().encodeToString(ask.body()) + "'";
            list.append("  ['").append(ask.method()).append("', '").append(origin).append(ask.path()).append("', ").append(body).append("],\n");
        }
        return """
                <!doctype html><html><body><pre id="r">pending</pre><script>
                const asks = [
                %s];
                async function run() {
                  const out = [];
                  for (const [i, [method, url, body]] of asks.entries()) {
                    try {
                      const sent = body === null ? undefined : Uint8Array.from(atob(body), c => c.charCodeAt(0));
                      const response = await fetch(url, {method: method, body: sent, cache: 'no-store'});
                      const bytes = new Uint8Array(await response.arrayBuffer());
                      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
                      const hex = Array.from(digest, b => b.toString(16).padStart(2, '0')).join('');
                      out.push(['ask', i, response.status, bytes.length, hex, response.headers.get('x-request-body-bytes')].join(' '));
                    } catch (e) {
                      out.push('ask ' + i + ' error ' + e);
                    }
                  }
                  document.getElementById('r').textContent = out.join('\\n');
                }
                run();
                </script></body></html>
                """.formatted(list);
    }
}
