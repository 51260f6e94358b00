package io.h2bench.sampler;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.jmeter.protocol.http.control.CacheManager;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleResult;

/**
 * One cell of the interoperability matrix: the sampler, as one virtual user on one connection
 * where the protocol allows, in one mode against one server. Where the server offers the mode: GETs
 * of every {@link InteropSite#OBJECTS object} (SHA-256 equal to the file's), a POST with a body, a
 * HEAD, each content coding the server offers, its pushes, a 304 revalidation by JMeter's Cache
 * Manager where the server sends a validator, and where it has {@link Target#routes}: a redirect chain
 * followed as JMeter's "Follow Redirects" does and a cookie carried by JMeter's Cookie Manager;
 * every sample's protocol the asked one.
 * Where it does not: one GET that must end, within the timeouts, in a failure with a message or in
 * a sample whose message names the protocol it used instead; never a silent other protocol.
 */
final class InteropCell {

    /** A parser's words, not a user's: a message made of them does not say what the server did. */
    private static final List<String> PARSER_WORDS = List.of("Illegal character", "bad response", "invalid_frame_length");

    /** Every sample's bounds: no cell can hang. */
    static final int CONNECT_TIMEOUT_MS = 5_000;
    static final int RESPONSE_TIMEOUT_MS = 20_000;

    enum Verdict { PASS, NOT_OFFERED, FAIL }

    /** What a server answers to the POST of {@link InteropSite#POST_BODY} to its {@code /echo}. */
    enum PostReply {
        /** the body itself */
        ECHO,
        /** "received N bytes", from the Content-Length it read (nginx and Caddy have no echo) */
        LENGTH,
        /** the file at the path (a server that serves files to any method) */
        FILE
    }

    /**
     * @param offered  null when the server offers the mode, else why not (with its source)
     * @param codings  the content codings it compresses {@link InteropSite#TEXT} with
     * @param pushes   a path whose response the server pushes another path with
     * @param routes   whether the server answers {@link InteropSite}'s redirect and cookie routes
     */
    record Target(String server, int port, InteropMode mode, String offered, List<String> codings, PostReply post,
            Map<String, String> pushes, boolean routes) {

        Target withRoutes() {
            return new Target(server, port, mode, offered, codings, post, pushes, true);
        }
    }

    record Result(Verdict verdict, String detail, long millis) {
    }

    private final InteropSite site;
    private final Target target;
    private final List<String> failures = new ArrayList<>();
    /** Checks a passing cell could not make against this server, and why (the table shows them). */
    private final List<String> unchecked = new ArrayList<>();
    private Http2Sampler last;

    private InteropCell(InteropSite site, Target target) {
        this.site = site;
        this.target = target;
    }

    static Result run(InteropSite site, Target target) {
        long start = System.nanoTime();
        InteropCell cell = new InteropCell(site, target);
        try {
            Result result = target.offered() == null ? cell.offered() : cell.notOffered();
            return new Result(result.verdict(), result.detail(), (System.nanoTime() - start) / 1_000_000);
        } finally {
            cell.closeUser();
        }
    }

    private Result offered() {
        if (target.mode() == InteropMode.H3_ALT_SVC) {
            // The first visit goes over TCP (a browser's too); its message must say so.
            HTTPSampleResult first = sample("GET", "/100B.bin", null, null);
            if (!first.isSuccessful()) {
                failures.add("first GET (over TCP): " + first.getResponseCode() + " " + first.getResponseMessage());
            } else if (!first.getResponseMessage().contains(protocolOf(first))) {
                failures.add("first GET: " + protocolOf(first) + " used, message only '" + first.getResponseMessage() + "'");
            }
        }
        for (String path : InteropSite.OBJECTS.keySet()) {
            HTTPSampleResult get = sample("GET", path, null, null);
            if (expect("GET " + path, get, 200)) {
                sameBytes("GET " + path, get.getResponseData(), site.file(path));
            }
        }
        post();
        HTTPSampleResult head = sample("HEAD", "/44kB.bin", null, null);
        if (expect("HEAD", head, 200) && head.getResponseData().length != 0) {
            failures.add("HEAD: " + head.getResponseData().length + " body bytes");
        }
        for (String coding : target.codings()) {
            HTTPSampleResult coded = sample("GET", InteropSite.TEXT, null, coding);
            if (expect(coding, coded, 200)) {
                if (!coded.getResponseHeaders().toLowerCase().contains("content-encoding: " + coding)) {
                    failures.add(coding + ": not coded (" + firstLine(coded.getResponseHeaders()) + ")");
                }
                sameBytes(coding, coded.getResponseData(), site.file(InteropSite.TEXT));
            }
        }
        target.pushes().forEach(this::pushed);
        revalidated();
        if (target.routes()) {
            redirected();
            cookies();
        } else {
            unchecked.add("redirects and cookies (the server has no routes, only files)");
        }
        return failures.isEmpty() ? new Result(Verdict.PASS, String.join("; ", unchecked), 0) : new Result(Verdict.FAIL, String.join("; ", failures), 0);
    }

    private void post() {
        String path = target.post() == PostReply.FILE ? "/100B.bin" : "/echo";
        HTTPSampleResult post = sample("POST", path, InteropSite.POST_BODY, null);
        if (!expect("POST", post, 200)) {
            return;
        }
        switch (target.post()) {
            case ECHO -> sameBytes("POST echo", post.getResponseData(), InteropSite.POST_BODY);
            case LENGTH -> {
                String expected = "received " + InteropSite.POST_BODY.length + " bytes";
                if (!post.getResponseDataAsString().trim().equals(expected)) {
                    failures.add("POST: '" + post.getResponseDataAsString().trim() + "', not '" + expected + "'");
                }
            }
            case FILE -> sameBytes("POST", post.getResponseData(), site.file(path));
        }
    }

    /** JMeter's Cache Manager sends the validator the server gave, and the server answers 304. */
    private void revalidated() {
        CacheManager cache = new CacheManager();
        cache.setUseExpires(false); // revalidate every time, whatever the server's freshness headers say
        cache.testStarted();
        Consumer<Http2Sampler> cached = sampler -> sampler.setCacheManager(cache);
        HTTPSampleResult first = sample("GET", "/44kB.bin", null, null, cached);
        if (!expect("GET for the cache", first, 200)) {
            return;
        }
        String headers = first.getResponseHeaders().toLowerCase(Locale.ROOT);
        if (!headers.contains("\netag:") && !headers.contains("\nlast-modified:")) {
            unchecked.add("304 revalidation (the server sends neither ETag nor Last-Modified)");
            return;
        }
        HTTPSampleResult second = sample("GET", "/44kB.bin", null, null, cached);
        if (expect("revalidation", second, 304) && second.getResponseData().length != 0) {
            failures.add("revalidation: 304 with " + second.getResponseData().length + " body bytes");
        }
    }

    /**
     * "Follow Redirects": one sub-result per hop, 302 then 301 then the file's 200 and bytes, each hop
     * over the asked protocol or saying which it used. The chain itself is JMeter's composition (the
     * first hop's request data, the last hop's response), so its hops are judged one by one.
     */
    private void redirected() {
        HTTPSampleResult chain = sample("GET", InteropSite.REDIRECT, null, null, sampler -> sampler.setFollowRedirects(true));
        SampleResult[] parts = chain.getSubResults();
        if (parts.length == 0) {
            expect("redirect chain", chain, 200);
            return;
        }
        for (int hop = 0; hop < parts.length; hop++) {
            HTTPSampleResult part = (HTTPSampleResult) parts[hop];
            int status = part.getResponseCode().matches("\\d{3}") ? Integer.parseInt(part.getResponseCode()) : -1;
            if (!expect("redirect hop " + (hop + 1), part, status)) {
                return;
            }
        }
        List<String> hops = Arrays.stream(parts).map(SampleResult::getResponseCode).toList();
        if (!hops.equals(List.of("302", "301", "200"))) {
            failures.add("redirect chain: hops " + hops + ", not [302, 301, 200]");
        }
        if (!chain.getURL().getPath().equals(InteropSite.REDIRECT_END)) {
            failures.add("redirect chain: ended at " + chain.getURL());
        }
        sameBytes("redirect chain", chain.getResponseData(), site.file(InteropSite.REDIRECT_END));
    }

    /** JMeter's Cookie Manager keeps the server's cookie and sends it back; without one the server refuses. */
    private void cookies() {
        CookieManager cookies = new CookieManager();
        cookies.testStarted();
        Consumer<Http2Sampler> withCookies = sampler -> sampler.setCookieManager(cookies);
        HTTPSampleResult refused = sample("GET", InteropSite.NEEDS_COOKIE, null, null, withCookies);
        if (!"403".equals(refused.getResponseCode())) {
            failures.add("cookie: " + refused.getResponseCode() + " before the cookie was set, not 403");
        }
        if (!expect("set cookie", sample("GET", InteropSite.SET_COOKIE, null, null, withCookies), 200)) {
            return;
        }
        HTTPSampleResult carried = sample("GET", InteropSite.NEEDS_COOKIE, null, null, withCookies);
        if (expect("cookie carried", carried, 200)
                && !carried.getRequestHeaders().contains(InteropSite.COOKIE_NAME + "=" + InteropSite.COOKIE_VALUE)) {
            failures.add("cookie carried: request headers '" + shorten(carried.getRequestHeaders()) + "'");
        }
    }

    private void pushed(String page, String push) {
        HTTPSampleResult main = sample("GET", page, null, null);
        if (!expect("GET " + page + " (pushing " + push + ")", main, 200)) {
            return;
        }
        for (SampleResult sub : main.getSubResults()) {
            if (sub.getSampleLabel().endsWith(push)) {
                sameBytes("push " + push, sub.getResponseData(), site.file(push));
                return;
            }
        }
        failures.add("push " + push + ": no pushed sub-result (" + main.getSubResults().length + " sub-results)");
    }

    /** One GET: a clear failure, or a sample that names the protocol it used instead; not a silent one. */
    private Result notOffered() {
        HTTPSampleResult get = sample("GET", "/100B.bin", null, null);
        String message = get.getResponseMessage();
        if (get.getTime() > CONNECT_TIMEOUT_MS + RESPONSE_TIMEOUT_MS) {
            return new Result(Verdict.FAIL, "took " + get.getTime() + " ms: " + message, 0);
        }
        String protocol = protocolOf(get);
        if (!get.isSuccessful() && get.getResponseCode().startsWith("Non HTTP")) {
            if (message == null || message.isBlank()) {
                return new Result(Verdict.FAIL, "failed without a message", 0);
            }
            boolean parserWords = PARSER_WORDS.stream().anyMatch(message::contains)
                    && !message.contains("not HTTP/2") && !message.contains("not HTTP/1.1");
            return parserWords
                    ? new Result(Verdict.FAIL, "unclear message: " + shorten(message), 0)
                    : new Result(Verdict.NOT_OFFERED, shorten(message), 0);
        }
        if (protocol.equals(target.mode().protocol)) {
            return new Result(Verdict.FAIL, "offered after all (" + protocol + ", " + get.getResponseCode() + "): the matrix says '"
                    + target.offered() + "'", 0);
        }
        if (message.contains(protocol)) {
            return new Result(Verdict.NOT_OFFERED, get.getResponseCode() + " " + shorten(message), 0);
        }
        return new Result(Verdict.FAIL, "silently " + protocol + ": " + get.getResponseCode() + " '" + message + "'", 0);
    }

    /** A successful sample with the status and the asked protocol; false (and a failure noted) if not. */
    private boolean expect(String what, HTTPSampleResult result, int status) {
        if (!result.isSuccessful() && result.getResponseCode().startsWith("Non HTTP")) {
            failures.add(what + ": " + shorten(result.getResponseMessage()));
            return false;
        }
        String protocol = protocolOf(result);
        if (!protocol.equals(target.mode().protocol)) {
            boolean stated = result.getResponseMessage().contains(protocol);
            failures.add(what + ": " + protocol + (stated ? " (stated: '" + result.getResponseMessage() + "')" : " silently"));
            return false;
        }
        if (!Integer.toString(status).equals(result.getResponseCode())) {
            failures.add(what + ": " + result.getResponseCode() + " " + result.getResponseMessage());
            return false;
        }
        return true;
    }

    private void sameBytes(String what, byte[] got, byte[] expected) {
        if (!DigestUtils.sha256Hex(got).equals(DigestUtils.sha256Hex(expected))) {
            failures.add(what + ": SHA-256 differs (" + got.length + " bytes, not " + expected.length + ")");
        }
    }

    private HTTPSampleResult sample(String method, String path, byte[] body, String acceptEncoding) {
        return sample(method, path, body, acceptEncoding, sampler -> { });
    }

    private HTTPSampleResult sample(String method, String path, byte[] body, String acceptEncoding,
            Consumer<Http2Sampler> setup) {
        Http2Sampler sampler = sampler(target.server(), target.mode(), "127.0.0.1", target.port(), method, path);
        if (body != null) {
            sampler.setPostBodyRaw(true);
            sampler.addNonEncodedArgument("", new String(body, StandardCharsets.US_ASCII), "");
        }
        if (acceptEncoding != null) {
            HeaderManager headers = new HeaderManager();
            headers.add(new Header("Accept-Encoding", acceptEncoding));
            sampler.setHeaderManager(headers);
        }
        setup.accept(sampler);
        last = sampler;
        return (HTTPSampleResult) sampler.sample();
    }

    /** A sampler for one request of a cell, with the cell's timeouts. */
    static Http2Sampler sampler(String server, InteropMode mode, String host, int port, String method, String path) {
        Http2Sampler sampler = new Http2Sampler();
        sampler.setName(server + " " + mode.label);
        sampler.setMethod(method);
        sampler.setProtocol(mode.scheme);
        sampler.setDomain(host);
        sampler.setPort(port);
        sampler.setPath(path);
        sampler.setHttpVersion(mode.mode);
        sampler.setConnectTimeout(Integer.toString(CONNECT_TIMEOUT_MS));
        sampler.setResponseTimeout(Integer.toString(RESPONSE_TIMEOUT_MS));
        return sampler;
    }

    /** The "Protocol:" line of the sampler data: what the exchange really used. */
    static String protocolOf(SampleResult result) {
        for (String line : result.getSamplerData().split("\n")) {
            if (line.startsWith("Protocol: ")) {
                return line.substring("Protocol: ".length());
            }
        }
        return "none";
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return (end < 0 ? text : text.substring(0, end)).trim();
    }

    private static String shorten(String message) {
        String one = message == null ? "" : message.replace('\n', ' ');
        return one.length() > 220 ? one.substring(0, 220) + "..." : one;
    }

    /** The virtual user's connections end with the cell, as at a JMeter thread's end. */
    private void closeUser() {
        if (last != null) {
            last.threadFinished();
        }
    }
}
