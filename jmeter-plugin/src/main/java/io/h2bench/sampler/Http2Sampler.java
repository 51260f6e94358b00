package io.h2bench.sampler;

import io.h2bench.client.UserConnections;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.profile.ConnectionProfile;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.jmeter.engine.event.LoopIterationEvent;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.util.HTTPConstants;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;

/**
 * JMeter's HTTP Request on h2bench's client: HTTP/1.1, HTTP/2 over TLS (ALPN, h2 first), h2c with
 * prior knowledge or Upgrade, with connect time, latency and bytes taken from the wire. Extends
 * {@link HTTPSamplerBase}, so defaults, managers, redirects, assertions and listeners work as usual.
 *
 * <p>One JMeter thread is one virtual user: its connections live in a {@link UserConnections} kept
 * per thread, reused across samples, reset per iteration when "Same user on each iteration" is off,
 * closed at thread end; the shared client stops at test end.
 */
public class Http2Sampler extends HTTPSamplerBase implements Interruptible {

    private static final long serialVersionUID = 1L;

    /** {@code HTTP_1_1}, {@code HTTP_2} (default), {@code H2C}, {@code H2C_UPGRADE}, {@code HTTP_3} or {@code HTTP_3_ALT_SVC}. */
    public static final String HTTP_VERSION = "H2Bench.httpVersion";
    /** HTTP/1.1 connections per origin and user (default 6). */
    public static final String MAX_CONNECTIONS_PER_ORIGIN = "H2Bench.maxConnectionsPerOrigin";
    /** Accept HTTP/2 server pushes and report them as sub-results (default true). */
    public static final String ACCEPT_PUSH = "H2Bench.acceptPush";
    /** Whose HTTP/2 SETTINGS and windows and QUIC transport parameters to announce: {@code CHROME} (default), {@code FIREFOX}, {@code JETTY}. */
    public static final String BROWSER_PRESET = "H2Bench.browserPreset";

    private static final ThreadLocal<UserConnections> USER = new ThreadLocal<>();
    private static final boolean IGNORE_FAILED_EMBEDDED =
            JMeterUtils.getPropDefault("httpsampler.ignore_failed_embedded_resources", false);

    private transient volatile UserConnections inUse;
    /** The pushes of the last main response, for the page load that may follow it. */
    private transient List<ExchangeResult> lastPushes = List.of();
    private transient String lastEngine = "";
    private transient SampleUris uris = new SampleUris();
    /** Set while JMeter walks a page's embedded resources: they are then fetched concurrently. */
    private transient PageResources page;

    /**
     * The protocol set in the sampler; when none is set (an HTTP Request converted by hand or by
     * {@link io.h2bench.convert.PlanConverter}): HTTP/2 for https, HTTP/1.1 for http — never h2c unless asked for.
     */
    public ProtocolMode getHttpVersion() {
        return modeFor(getHttpVersionSet(), getProtocol());
    }

    private static ProtocolMode modeFor(ProtocolMode set, String scheme) {
        if (set == null) {
            return "https".equalsIgnoreCase(scheme) ? ProtocolMode.HTTP_2 : ProtocolMode.HTTP_1_1;
        }
        return set;
    }

    /** The version set in the sampler; null when none is (then the URL's scheme chooses). */
    public ProtocolMode getHttpVersionSet() {
        String value = getPropertyAsString(HTTP_VERSION, "");
        return value.isBlank() ? null : ProtocolMode.parse(value);
    }

    /** @param mode null: none, so that the URL's scheme chooses (HTTP/1.1 for http, HTTP/2 for https) */
    public void setHttpVersion(ProtocolMode mode) {
        if (mode == null) {
            removeProperty(HTTP_VERSION);
        } else {
            setProperty(HTTP_VERSION, mode.name());
        }
    }

    public int getMaxConnectionsPerOrigin() {
        return getPropertyAsInt(MAX_CONNECTIONS_PER_ORIGIN, ExchangeRequest.DEFAULT_MAX_CONNECTIONS);
    }

    public void setMaxConnectionsPerOrigin(int max) {
        setProperty(MAX_CONNECTIONS_PER_ORIGIN, max);
    }

    public boolean isAcceptPush() {
        return getPropertyAsBoolean(ACCEPT_PUSH, true);
    }

    public void setAcceptPush(boolean accept) {
        setProperty(ACCEPT_PUSH, accept);
    }

    /** The preset set in the sampler, Chrome when none is (plans older than presets); an unknown one is refused. */
    public BrowserPreset getBrowserPreset() {
        return BrowserPreset.parse(getPropertyAsString(BROWSER_PRESET, ""));
    }

    public void setBrowserPreset(BrowserPreset preset) {
        setProperty(BROWSER_PRESET, preset.name());
    }

    /** The whole sample (redirects and page resources included), its TLS times and engine then put where a JTL keeps them. */
    @Override
    public SampleResult sample() {
        lastEngine = "";
        SampleResult result = super.sample();
        TlsColumns.publish(result, JMeterContextService.getContext().getVariables());
        EngineColumn.publish(lastEngine, JMeterContextService.getContext().getVariables());
        return result;
    }

    /**
     * One exchange, in the order of JMeter's own HTTP sampler: validate, connection, sampleStart,
     * send, read, sampleEnd, then code, headers and sizes. Nothing is thrown out of here.
     */
    @Override
    protected HTTPSampleResult sample(URL url, String method, boolean areFollowingRedirect, int frameDepth) {
        HTTPSampleResult result = new HTTPSampleResult();
        result.setSampleLabel(frameDepth > 0 ? url.toString() : getName());
        result.setHTTPMethod(method);
        result.setURL(url);
        try {
            if (CacheBridge.fresh(getCacheManager(), url, method, ManagedHeaders.plain(this))) {
                return CacheBridge.cachedResult(result);
            }
            ExchangeRequest exchange = validate(url, method, areFollowingRedirect, result);
            ConnectionProfile profile = ConnectionSettings.of(this, url);
            UserConnections user = connection();
            if (page != null && frameDepth > 0) {
                return embeddedResource(user, exchange, profile, url, result);
            }
            ExchangeResult outcome = sendAndRead(user, exchange, profile, result);
            URL finalUrl = outcome.uri() == exchange.uri() ? url : outcome.uri().toURL();
            result.setURL(finalUrl);
            fill(result, outcome, finalUrl);
            lastEngine = EngineColumn.name(outcome);
            if (outcome.failed()) {
                return result;
            }
            lastPushes = outcome.pushes();
            HTTPSampleResult processed = resultProcessing(areFollowingRedirect, frameDepth, result);
            addPushes(processed, lastPushes);
            return processed;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return errorResult(interrupted, result);
        } catch (IOException | URISyntaxException | RuntimeException failure) {
            return errorResult(failure, result);
        } finally {
            lastPushes = List.of();
        }
    }

    /** Code, headers and sizes of one exchange, success or failure. */
    private void fill(HTTPSampleResult result, ExchangeResult outcome, URL url) {
        ResultMapper.timesAndSizes(outcome, result);
        result.setSamplerData(ResultMapper.connectionSummary(outcome));
        if (outcome.failed()) {
            failure(result, outcome);
            return;
        }
        ResultMapper.response(outcome, result, url);
        ResultMapper.noteProtocol(getHttpVersion(), outcome, result);
        result.setSuccessful(isSuccessCode(outcome.status()));
        try {
            result.setResponseData(ResponseBodies.stored(this, outcome));
        } catch (IOException undecodable) {
            result.setResponseMessage("Cannot decode the body (Content-Encoding: "
                    + outcome.responseHeader("Content-Encoding") + "): " + undecodable);
            result.setSuccessful(false);
        }
        ManagedHeaders.saveCookies(this, outcome, url);
        CacheBridge.save(getCacheManager(), outcome, result);
    }

    /** A resource of the page being loaded: taken from a push, or requested without waiting. */
    private HTTPSampleResult embeddedResource(UserConnections user, ExchangeRequest exchange, ConnectionProfile profile,
                                              URL url, HTTPSampleResult placeholder) {
        ExchangeResult pushed = page.takePush(url);
        if (pushed != null) {
            return page.started(placeholder, CompletableFuture.completedFuture(pushed));
        }
        return page.started(placeholder, user.sendAsync(exchange, profile, ManagedHeaders.hopCredentials(this)));
    }

    /**
     * The page load: JMeter's parser and filters pick the resources (through the base class; a JSON
     * response's HAL links here, JMeter having no JSON parser), this sampler fetches them all at once
     * on the user's connections, then JMeter's page result is completed with their real times and
     * sizes. Parallel downloads on JMeter threads are not used.
     */
    @Override
    protected HTTPSampleResult downloadPageResources(HTTPSampleResult mainResult, HTTPSampleResult container, int frameDepth) {
        PageResources resources = new PageResources(lastPushes);
        page = resources;
        HTTPSampleResult pageResult;
        try {
            pageResult = HalLinks.readsMediaType(mainResult.getMediaType())
                    ? downloadHalLinks(mainResult, container, frameDepth)
                    : super.downloadPageResources(mainResult, container, frameDepth);
        } finally {
            page = null;
        }
        try {
            List<ExchangeResult> unused = resources.finish((placeholder, outcome) -> {
                URL requested = placeholder.getURL();
                placeholder.setURL(PageResources.finalUrl(requested, outcome));
                fill(placeholder, outcome, placeholder.getURL());
                placeholder.setSampleLabel(requested.toString());
                if (outcome.pushed()) {
                    placeholder.setSamplerData(ResultMapper.pushSummary(outcome, true));
                }
            });
            lastPushes = List.of();
            unused.forEach(push -> {
                HTTPSampleResult result = ResultMapper.push(push);
                result.setSamplerData(ResultMapper.pushSummary(push, false));
                pageResult.addSubResult(result, false);
            });
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        if (pageResult != mainResult) {
            PageResources.recomputeTotals(pageResult, IGNORE_FAILED_EMBEDDED);
        }
        return pageResult;
    }

    /**
     * The base class's walk over a page's links, for the links of a HAL document: the same URL
     * filters, the same container (the main result is its first sub-result), one {@link #sample}
     * per link, which starts the request and returns its placeholder.
     */
    private HTTPSampleResult downloadHalLinks(HTTPSampleResult mainResult, HTTPSampleResult container, int frameDepth) {
        Predicate<URL> fetched = EmbeddedUrlFilter.of(this);
        List<URL> links = HalLinks.of(mainResult.getResponseData(), mainResult.getURL()).stream().filter(fetched).toList();
        if (links.isEmpty()) {
            return mainResult;
        }
        HTTPSampleResult pageResult = container;
        if (pageResult == null) {
            pageResult = new HTTPSampleResult(mainResult);
            pageResult.addRawSubResult(mainResult);
        }
        for (URL link : links) {
            HTTPSampleResult resource = sample(link, HTTPConstants.GET, false, frameDepth + 1);
            if (resource != null) { // null: fresh in JMeter's cache, and set to leave no sample
                pageResult.addSubResult(resource);
            }
        }
        return pageResult;
    }

    /** Pushes not consumed by a page load are still reported, each as a sub-result. */
    private static void addPushes(HTTPSampleResult result, List<ExchangeResult> pushes) {
        pushes.forEach(push -> result.addSubResult(ResultMapper.push(push), false));
    }

    /** Resources always load concurrently on the user's own connections, never on JMeter's pool. */
    @Override
    public boolean isConcurrentDwn() {
        return false;
    }

    /** Builds the request from the sampler and its managers; a missing file fails here, before sending. */
    private ExchangeRequest validate(URL url, String method, boolean followingRedirect, HTTPSampleResult result)
            throws IOException, URISyntaxException {
        URI uri = uris.of(url);
        RequestBodies.Body body = RequestBodies.build(this, method, followingRedirect);
        List<HeaderField> headers = ManagedHeaders.all(this, url, body);
        ManagedHeaders.show(result, headers);
        result.setQueryString(body.display());
        String cookie = ManagedHeaders.cookie(headers);
        if (cookie != null) {
            result.setCookies(cookie);
        }
        ProtocolMode set = getHttpVersionSet();
        return new ExchangeRequest(method, uri, headers, body.bytes(), modeFor(set, url.getProtocol()),
                Duration.ofMillis(Math.max(0, getConnectTimeout())), Duration.ofMillis(Math.max(0, getResponseTimeout())),
                clientFollowsRedirects(), isAcceptPush(), getMaxConnectionsPerOrigin(), set == null, MAX_REDIRECTS);
    }

    /**
     * Main requests follow "Redirect Automatically" hop by hop here ({@link AutoRedirects}); a page's
     * resources, fetched all at once without waiting, leave it to the client, which follows them by
     * the same rules ({@link io.h2bench.client.Redirects}), each hop on the engine of its protocol.
     */
    private boolean clientFollowsRedirects() {
        return page != null && getAutoRedirects();
    }

    /** This thread's virtual user, opened on its first sample. */
    private UserConnections connection() {
        UserConnections user = USER.get();
        if (user == null || !user.usable()) {
            user = UserConnections.open();
            USER.set(user);
        }
        inUse = user;
        return user;
    }

    /** sampleStart, send, read, sampleEnd: the client takes both times from Jetty's events. */
    private ExchangeResult sendAndRead(UserConnections user, ExchangeRequest exchange, ConnectionProfile profile,
            HTTPSampleResult result) throws InterruptedException {
        AtomicReference<ExchangeRequest> last = new AtomicReference<>(exchange);
        Challenges.Hop send = request -> {
            last.set(request);
            return user.send(request, ConnectionSettings.forHop(this, request.uri(), exchange.uri(), profile));
        };
        try {
            Challenges.Hop hop = request -> Challenges.answer(getAuthManager(), request, send.send(request), send);
            return getAutoRedirects() ? AutoRedirects.follow(hop, exchange, ManagedHeaders.hopCredentials(this)) : hop.send(exchange);
        } finally {
            inUse = null;
            if (last.get() != exchange) {
                // As HttpClient4: the request shown is the last one sent (after a redirect or a challenge).
                ManagedHeaders.show(result, last.get().headers());
            }
        }
    }

    private HTTPSampleResult failure(HTTPSampleResult result, ExchangeResult outcome) {
        Throwable cause = outcome.failure();
        String type = cause == null ? "unknown" : cause.getClass().getName();
        result.setResponseCode(NON_HTTP_RESPONSE_CODE + ": " + type);
        result.setResponseMessage(NON_HTTP_RESPONSE_MESSAGE + ": " + outcome.failureMessage());
        result.setResponseData(outcome.failureMessage().getBytes(StandardCharsets.UTF_8));
        result.setDataType(HTTPSampleResult.TEXT);
        result.setSuccessful(false);
        return result;
    }

    /** "Same user on each iteration" unchecked: this user's connections start afresh, like its cookies. */
    @Override
    public void testIterationStart(LoopIterationEvent event) {
        super.testIterationStart(event);
        AbstractThreadGroup group = JMeterContextService.getContext().getThreadGroup();
        UserConnections user = USER.get();
        if (user != null && group != null && !group.isSameUserOnNextIteration()) {
            user.reset();
            UserCertificate.forget();
        }
    }

    @Override
    public void threadFinished() {
        super.threadFinished();
        UserConnections user = USER.get();
        USER.remove();
        UserCertificate.forget();
        if (user != null) {
            user.close();
        }
    }

    /** After the last thread: no client thread may outlive the test, or JMeter would not exit. */
    @Override
    public void testEnded() {
        super.testEnded();
        UserConnections.stopAll();
    }

    @Override
    public boolean interrupt() {
        UserConnections user = inUse;
        if (user == null) {
            return false;
        }
        user.abortAll("Sample interrupted by JMeter");
        return true;
    }
}
