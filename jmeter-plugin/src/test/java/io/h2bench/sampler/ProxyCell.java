package io.h2bench.sampler;

import io.h2bench.client.exchange.ProtocolMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;

/**
 * One cell of {@link ProxyInteropTest}: a mode to an origin through a proxy, the sampler (two samples
 * of one user, the second on its connection when the protocol keeps it) beside its peer through the
 * same proxy, HttpClient4 for HTTP/1.1 and curl's {@code -x} for HTTP/2. Each client's requests carry a
 * query of their own, so the origin's and the proxy's records tell them apart.
 */
final class ProxyCell {

    /**
     * An origin: the port for the mode, the object, its bytes (null: compared between the clients only), a
     * path that answers how many bytes of a POST's body it read, what it saw.
     */
    record Origin(String name, int port, String path, byte[] file, String postPath, ToLongFunction<String> requestsWithQuery,
                  BiPredicate<String, String> leaked) {
    }

    /**
     * The line printed for the cell; what interop.sh's table says of a pass (empty: nothing); the mode goes through
     * no proxy, and the sample said so; what was wrong (nothing for a pass).
     */
    record Outcome(String row, String note, boolean carriedNowhere, List<String> problems) {
    }

    /** What one client got: status, HTTP version ("1.1", "2"), body SHA-256, the origin saw Proxy-Authorization, the message. */
    private record Seen(String code, String version, String sha, boolean leaked, String message) {
        @Override
        public String toString() {
            return code + " " + version + (leaked ? " Proxy-Authorization at the origin" : "") + " " + message;
        }
    }

    private static final String CARRIED_NOWHERE = "HTTP/3 cannot go through an HTTP proxy";
    /** How many body bytes the origin read: h2bench's option object says it in a header, nginx's /echo in its body. */
    private static final Pattern RECEIVED = Pattern.compile("X-Request-Body-Bytes: (\\d+)|received (\\d+) bytes",
            Pattern.CASE_INSENSITIVE);

    private final ForwardProxy proxy;
    private final String proxyName;
    /** user:password, or null. */
    private final String credentials;
    /** The password is not the proxy's: it answers 407. */
    private final boolean wrongPassword;

    ProxyCell(ForwardProxy proxy, String proxyName, String credentials, boolean wrongPassword) {
        this.proxy = proxy;
        this.proxyName = proxyName;
        this.credentials = credentials;
        this.wrongPassword = wrongPassword;
    }

    /** The proxy, its credentials (none, Basic, wrong) and the origin: a row of interop.sh's table. */
    String tableRow(Origin origin) {
        return proxyName + " " + auth() + " " + origin.name();
    }

    private String auth() {
        return credentials == null ? "none" : wrongPassword ? "wrong" : "Basic";
    }

    Outcome run(InteropMode mode, Origin origin) throws Exception {
        String cell = proxyName + "-" + auth() + "-" + origin.name() + "-" + mode.name();
        String row = proxyName + "\t" + auth() + "\t" + origin.name() + "\t" + mode.label;
        if (mode.mode != null && mode.mode.http3()) {
            return refused(mode, origin, cell, row);
        }
        return wrongPassword ? answeredByProxy(mode, origin, cell, row) : carried(mode, origin, cell, row);
    }

    /** A wrong password: the proxy's 407 is the sample's response, as HttpClient4 reports it, and the origin saw nothing. */
    private Outcome answeredByProxy(InteropMode mode, Origin origin, String cell, String row) throws Exception {
        List<String> problems = new ArrayList<>();
        String query = "cell=" + cell + "-ours";
        Predicate<String> refusal = tunnelled(mode) ? line -> line.contains("CONNECT 127.0.0.1:" + origin.port() + " ") && line.contains("407")
                : line -> line.contains(query) && line.contains("407");
        long before = proxyLines(refusal).size();
        Http2Sampler sampler = aimed(new Http2Sampler(), mode, origin, query);
        sampler.setHttpVersion(mode.mode);
        HTTPSampleResult ours = sample(sampler);
        sampler.threadFinished();
        String logged = awaitProxyLine(refusal, before);
        HTTPSamplerBase hc4 = aimed(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4), mode, origin,
                "cell=" + cell + "-hc4");
        HTTPSampleResult theirs = sample(hc4);
        hc4.threadFinished();
        if (ours.isSuccessful() || !ours.getResponseCode().equals("407") || !ours.getResponseCode().equals(theirs.getResponseCode())
                || !ours.getResponseMessage().equals(theirs.getResponseMessage())
                || !ours.getResponseHeaders().contains("Proxy-Authenticate: Basic")) {
            problems.add("ours " + ours.getResponseCode() + " " + ours.getResponseMessage() + " but HttpClient4 " + theirs.getResponseCode()
                    + " " + theirs.getResponseMessage());
        }
        if (origin.requestsWithQuery().applyAsLong(query) > 0) {
            problems.add("ours reached the origin");
        }
        if (logged == null) {
            problems.add("the proxy's log has no 407 of ours");
        }
        return new Outcome(row + "\t" + ours.getResponseCode() + " " + ours.getResponseMessage() + "\tHC4 " + theirs.getResponseCode()
                + " " + theirs.getResponseMessage() + "\t" + (logged == null ? "-" : logged.trim()), "", false, problems);
    }

    private Outcome carried(InteropMode mode, Origin origin, String cell, String row) throws Exception {
        List<String> problems = new ArrayList<>();
        String query = "cell=" + cell + "-ours";
        long tunnelsBefore = proxyLines(tunnelOf(origin)).size();
        Http2Sampler sampler = aimed(new Http2Sampler(), mode, origin, query);
        sampler.setHttpVersion(mode.mode);
        List<HTTPSampleResult> results = List.of(sample(sampler), sample(sampler));
        sampler.threadFinished();
        Seen ours = seen(results.get(0), origin, query);
        for (HTTPSampleResult result : results) {
            Seen each = seen(result, origin, query);
            if (!result.isSuccessful() || !each.sha().equals(ours.sha()) || each.leaked()) {
                problems.add("ours: " + each);
            }
        }
        String logged = tunnelled(mode) ? awaitProxyLine(tunnelOf(origin), tunnelsBefore)
                : awaitProxyLine(line -> line.contains("http://127.0.0.1:" + origin.port() + origin.path() + "?" + query) && byUser(line), 0);
        if (logged == null) {
            problems.add("the proxy's log has no " + (tunnelled(mode) ? "tunnel" : "request") + " of ours" + (credentials != null ? " by " + user() : ""));
        }
        boolean http11 = mode == InteropMode.H1 || mode == InteropMode.H1_TLS;
        String peerQuery = "cell=" + cell + (http11 ? "-hc4" : "-curl");
        Seen peer = http11 ? hc4(mode, origin, peerQuery) : curl(mode, origin, peerQuery);
        if (!ours.code().equals(peer.code()) || !ours.version().equals(peer.version()) || !ours.sha().equals(peer.sha()) || peer.leaked()) {
            problems.add("ours " + ours + " but " + (http11 ? "HttpClient4 " : "curl ") + peer);
        }
        if (origin.file() != null && !ours.sha().equals(DigestUtils.sha256Hex(origin.file()))) {
            problems.add("ours: the body is not the file's");
        }
        boolean other = !("HTTP/" + ours.version()).equals(mode.protocol.replace(".0", ""));
        if (other && !ours.message().contains("was used")) {
            problems.add("ours used HTTP/" + ours.version() + " without saying so: " + ours.message());
        }
        List<String> notes = new ArrayList<>();
        if (other) {
            notes.add("the GETs over HTTP/" + ours.version() + ", as " + (http11 ? "HttpClient4's" : "curl's") + ": " + ours.message());
        }
        String post = post(mode, origin, cell, http11, problems, notes);
        String reused = results.get(1).getSamplerData().contains("(reused)") ? ", 2nd reused" : "";
        return new Outcome(row + "\t" + ours + reused + "; " + post + "\t" + (http11 ? "HC4 " : "curl ") + peer + "\t"
                + (logged == null ? "-" : logged.trim()), String.join("; ", notes), false, problems);
    }

    /**
     * A new user's POST of {@link InteropSite#POST_BODY} (its first request, so with credentials the
     * proxy's 407 comes on it and the body goes again), beside the peer's: the origin read the whole body.
     */
    private String post(InteropMode mode, Origin origin, String cell, boolean http11, List<String> problems, List<String> notes)
            throws Exception {
        String query = "cell=" + cell + "-post";
        Http2Sampler sampler = aimedAt(new Http2Sampler(), "POST", mode, origin, origin.postPath(), query + "-ours");
        sampler.setHttpVersion(mode.mode);
        withBody(sampler);
        HTTPSampleResult ours = sample(sampler);
        sampler.threadFinished();
        String oursRead = received(ours.getResponseHeaders() + ours.getResponseDataAsString());
        String peerRead;
        if (http11) {
            HTTPSamplerBase hc4 = withBody(aimedAt(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4), "POST", mode,
                    origin, origin.postPath(), query + "-hc4"));
            HTTPSampleResult theirs = sample(hc4);
            hc4.threadFinished();
            peerRead = theirs.getResponseCode() + " " + received(theirs.getResponseHeaders() + theirs.getResponseDataAsString());
        } else {
            Path body = Files.createTempFile("h2bench-proxy-post", ".txt");
            try {
                Files.write(body, InteropSite.POST_BODY);
                String out = curlOutput(mode, url(mode, origin, origin.postPath(), query + "-curl"), body, null);
                peerRead = out.substring(out.lastIndexOf('\n') + 1).split(" ")[0] + " " + received(out);
            } finally {
                Files.deleteIfExists(body);
            }
        }
        String oursSaid = ours.getResponseCode() + " " + oursRead;
        String expected = "200 " + InteropSite.POST_BODY.length;
        if (!oursSaid.equals(expected) || !peerRead.equals(expected)) {
            problems.add("POST: ours " + oursSaid + " (" + ours.getResponseMessage() + "), peer " + peerRead + ", not " + expected);
        }
        boolean other = ours.getResponseMessage().contains("was used");
        if (other) {
            notes.add(notes.isEmpty() ? "the POST over HTTP/1.1: " + ours.getResponseMessage() : "the POST too");
        }
        return "POST " + oursSaid + " read" + (other ? " over HTTP/1.1" : "");
    }

    private static String received(String response) {
        Matcher matcher = RECEIVED.matcher(response);
        return !matcher.find() ? "?" : matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
    }

    private static <S extends HTTPSamplerBase> S withBody(S sampler) {
        sampler.setPostBodyRaw(true);
        sampler.addNonEncodedArgument("", new String(InteropSite.POST_BODY, StandardCharsets.US_ASCII), "");
        return sampler;
    }

    /** HTTP/3, which no HTTP proxy carries (QUIC is UDP): the sample fails saying so, and nothing reaches the proxy or the origin. */
    private Outcome refused(InteropMode mode, Origin origin, String cell, String row) throws Exception {
        List<String> problems = new ArrayList<>();
        String query = "cell=" + cell + "-ours";
        Http2Sampler sampler = aimed(new Http2Sampler(), mode, origin, query);
        sampler.setHttpVersion(mode.mode);
        HTTPSampleResult result = sample(sampler);
        sampler.threadFinished();
        if (result.isSuccessful() || !result.getResponseMessage().contains(CARRIED_NOWHERE)) {
            problems.add("ours: " + result.getResponseCode() + " " + result.getResponseMessage());
        }
        if (origin.requestsWithQuery().applyAsLong(query) > 0 || proxy.accessLog().contains(query)) {
            problems.add("ours reached " + (proxy.accessLog().contains(query) ? "the proxy" : "the origin"));
        }
        String peer = "curl: no HTTP/3 in Debian's build";
        return new Outcome(row + "\tfails: " + result.getResponseMessage() + "\t" + peer + "\t-", result.getResponseMessage(), true,
                problems);
    }

    private Seen seen(HTTPSampleResult result, Origin origin, String query) {
        String data = result.getSamplerData() == null ? "" : result.getSamplerData();
        String version = data.contains("Protocol: HTTP/2.0") ? "2" : data.contains("Protocol: HTTP/1.1") ? "1.1" : "?";
        return new Seen(result.getResponseCode(), version, DigestUtils.sha256Hex(result.getResponseData()),
                origin.leaked().test(query, result.getResponseHeaders()), result.getResponseMessage());
    }

    private Seen hc4(InteropMode mode, Origin origin, String query) {
        HTTPSamplerBase sampler = aimed(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4), mode, origin, query);
        HTTPSampleResult result = sample(sampler);
        sampler.threadFinished();
        return new Seen(result.getResponseCode(), "1.1", DigestUtils.sha256Hex(result.getResponseData()),
                origin.leaked().test(query, result.getResponseHeaders()), result.getResponseMessage());
    }

    /** curl 7.88 through the proxy in the mode's own option; its status and version, the body's SHA-256. */
    private Seen curl(InteropMode mode, Origin origin, String query) throws Exception {
        Path body = Files.createTempFile("h2bench-proxy-curl", ".bin");
        try {
            String out = curlOutput(mode, url(mode, origin, origin.path(), query), null, body);
            String[] last = out.substring(out.lastIndexOf('\n') + 1).split(" ");
            return new Seen(last[0], last.length > 1 ? last[1] : "?", DigestUtils.sha256Hex(Files.readAllBytes(body)),
                    origin.leaked().test(query, out), String.join(" ", Arrays.asList(last).subList(Math.min(2, last.length), last.length)));
        } finally {
            Files.deleteIfExists(body);
        }
    }

    /**
     * curl's headers (and the body when {@code saveTo} is null), then a line "status version exit=N"; {@code upload}:
     * a POST's body, or null for a GET.
     */
    private String curlOutput(InteropMode mode, String url, Path upload, Path saveTo) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sk", "--max-time", "20"));
        switch (mode) {
            // without --proxytunnel curl sends HTTP/1.1 to the proxy for an http URL, whatever it was asked
            case H2C -> command.addAll(List.of("--http2-prior-knowledge", "--proxytunnel"));
            case SCHEME_HTTPS -> { } // curl's default for https: h2 by ALPN, http/1.1 allowed
            default -> command.add("--http2");
        }
        command.addAll(List.of("-x", "http://127.0.0.1:" + proxy.port(), "-D", "-", "-w", "\n%{http_code} %{http_version}", url));
        if (saveTo != null) {
            command.addAll(List.of("-o", saveTo.toString()));
        }
        if (upload != null) {
            command.addAll(List.of("--data-binary", "@" + upload, "-H", "Content-Type: application/octet-stream"));
        }
        if (credentials != null) {
            command.addAll(List.of("--proxy-user", credentials));
        }
        // one try, so that curl's failure fails the cell: both of curl 7.88's failures seen here had causes that the
        // requests now avoid (the h2c Upgrade's object and nginx's /echo-after-body, ProxyInteropTest)
        Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new String(curl.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)
                + (curl.waitFor(30, TimeUnit.SECONDS) ? " exit=" + curl.exitValue() : " did-not-end");
    }

    private static <S extends HTTPSamplerBase> S aimed(S sampler, InteropMode mode, Origin origin, String query) {
        return aimedAt(sampler, "GET", mode, origin, origin.path(), query);
    }

    /** The method first, as JMeter's editor sets it: a GET's path gives its query to the arguments, a POST's keeps it. */
    private static <S extends HTTPSamplerBase> S aimedAt(S sampler, String method, InteropMode mode, Origin origin, String path,
                                                        String query) {
        sampler.setName(sampler.getClass().getSimpleName());
        sampler.setMethod(method);
        sampler.setProtocol(mode.scheme);
        sampler.setDomain("127.0.0.1");
        sampler.setPort(origin.port());
        sampler.setPath(withQuery(path, query));
        sampler.setConnectTimeout("5000");
        sampler.setResponseTimeout("20000");
        return sampler;
    }

    /** Through a CONNECT tunnel: https, and h2c by prior knowledge. */
    private static boolean tunnelled(InteropMode mode) {
        return mode.tls() || mode == InteropMode.H2C;
    }

    private static String url(InteropMode mode, Origin origin, String path, String query) {
        return mode.scheme + "://127.0.0.1:" + origin.port() + withQuery(path, query);
    }

    private static String withQuery(String path, String query) {
        return path + (path.contains("?") ? "&" : "?") + query;
    }

    private HTTPSampleResult sample(HTTPSamplerBase sampler) {
        sampler.setProperty(HTTPSamplerBase.PROXYHOST, "127.0.0.1");
        sampler.setProperty(HTTPSamplerBase.PROXYPORT, proxy.port());
        if (credentials != null) {
            sampler.setProperty(HTTPSamplerBase.PROXYUSER, user());
            sampler.setProperty(HTTPSamplerBase.PROXYPASS, credentials.substring(credentials.indexOf(':') + 1));
        }
        return (HTTPSampleResult) sampler.sample();
    }

    private String user() {
        return credentials.substring(0, credentials.indexOf(':'));
    }

    /** A line with the user's name when there are credentials (squid and Apache both log it), any line when none. */
    private boolean byUser(String line) {
        return credentials == null || line.contains(" " + user());
    }

    private Predicate<String> tunnelOf(Origin origin) {
        return line -> line.contains("CONNECT 127.0.0.1:" + origin.port() + " ") && byUser(line);
    }

    private List<String> proxyLines(Predicate<String> matching) throws Exception {
        return proxy.accessLog().lines().filter(matching).toList();
    }

    /** The {@code after}th line on that matches, waiting up to 10 s (a proxy logs a tunnel when it closes); null if none came. */
    private String awaitProxyLine(Predicate<String> matching, long after) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            List<String> lines = proxyLines(matching);
            if (lines.size() > after) {
                return lines.get((int) after);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        return null;
    }
}
