package io.h2bench.sampler;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.jmeter.protocol.http.control.AuthManager;
import org.apache.jmeter.protocol.http.control.Authorization;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.util.JMeterUtils;

/** Request headers from JMeter's Header, Cookie, Authorization (preemptive Basic) and Cache managers; cookies saved back. */
final class ManagedHeaders {

    private static final boolean PREEMPTIVE_BASIC = JMeterUtils.getPropDefault("httpclient4.auth.preemptive", true);

    private ManagedHeaders() {
    }

    /** The Header Manager's headers, in order (no cookies, auth or cache headers yet). */
    static List<HeaderField> plain(HTTPSamplerBase sampler) {
        List<HeaderField> headers = new ArrayList<>();
        HeaderManager headerManager = sampler.getHeaderManager();
        if (headerManager != null) {
            for (JMeterProperty property : headerManager.getHeaders()) {
                Header header = (Header) property.getObjectValue();
                if (header.getName() != null && !header.getName().isBlank()) {
                    headers.add(new HeaderField(header.getName(), header.getValue()));
                }
            }
        }
        return headers;
    }

    /** Everything the request carries: headers, body type, cookies, authorization, cache validators. */
    static List<HeaderField> all(HTTPSamplerBase sampler, URL url, RequestBodies.Body body) {
        List<HeaderField> headers = plain(sampler);
        if (body.replacesContentType()) {
            headers.removeIf(field -> is(field, "Content-Type"));
        }
        if (body.contentType() != null && headers.stream().noneMatch(field -> is(field, "Content-Type"))) {
            headers.add(new HeaderField("Content-Type", body.contentType()));
        }
        CookieManager cookies = sampler.getCookieManager();
        String cookie = cookies == null ? null : cookies.getCookieHeaderForURL(url);
        if (cookie != null && !cookie.isEmpty()) {
            headers.add(new HeaderField("Cookie", cookie));
        }
        String authorization = preemptiveBasic(sampler.getAuthManager(), url);
        if (authorization != null && headers.stream().noneMatch(field -> is(field, "Authorization"))) {
            headers.add(new HeaderField("Authorization", authorization));
        }
        headers.addAll(CacheBridge.conditionalHeaders(sampler.getCacheManager(), url));
        return headers;
    }

    /**
     * The credentials of a redirect's hop as HttpClient4 sends them: its exec chain adds the
     * Authorization Manager's preemptive Basic header per hop, for the hop's URL, so none goes to an
     * origin the manager has no entry for; a Header Manager's own Authorization goes along with the
     * other headers. For a page's resources it runs off the JMeter thread, reading the manager only.
     */
    static UnaryOperator<ExchangeRequest> hopCredentials(HTTPSamplerBase sampler) {
        AuthManager auth = sampler.getAuthManager();
        if (auth == null || plain(sampler).stream().anyMatch(field -> is(field, "Authorization"))) {
            return UnaryOperator.identity();
        }
        return hop -> {
            List<HeaderField> headers = new ArrayList<>(hop.headers());
            headers.removeIf(field -> is(field, "Authorization"));
            try {
                String authorization = preemptiveBasic(auth, hop.uri().toURL());
                if (authorization != null) {
                    headers.add(new HeaderField("Authorization", authorization));
                }
            } catch (MalformedURLException | IllegalArgumentException notAUrl) {
                // no URL, no entry of the manager: the hop goes without credentials
            }
            return hop.withHeaders(headers);
        };
    }

    /**
     * Basic credentials sent before any challenge, as HttpClient4 does for a BASIC entry when
     * {@code httpclient4.auth.preemptive} is true (its default); DIGEST waits for the server's 401.
     */
    @SuppressWarnings("deprecation") // BASIC_DIGEST: old plans still carry it, HttpClient4 treats it as BASIC
    private static String preemptiveBasic(AuthManager auth, URL url) {
        Authorization credentials = auth == null || !PREEMPTIVE_BASIC ? null : auth.getAuthForURL(url);
        if (credentials == null) {
            return null;
        }
        AuthManager.Mechanism mechanism = credentials.getMechanism();
        return mechanism == AuthManager.Mechanism.BASIC || mechanism == AuthManager.Mechanism.BASIC_DIGEST
                ? credentials.toBasicHeader() : null;
    }

    static void saveCookies(HTTPSamplerBase sampler, ExchangeResult outcome, URL url) {
        CookieManager cookies = sampler.getCookieManager();
        if (cookies == null) {
            return;
        }
        outcome.responseHeaders().stream()
                .filter(field -> is(field, "Set-Cookie"))
                .forEach(field -> cookies.addCookieFromHeader(field.value(), url));
    }

    private static boolean is(HeaderField field, String name) {
        return field.name().equalsIgnoreCase(name);
    }

    /** The request's headers as JMeter shows them. */
    static void show(HTTPSampleResult result, List<HeaderField> headers) {
        StringBuilder shown = new StringBuilder();
        for (HeaderField field : headers) {
            shown.append(field.name()).append(": ").append(field.value()).append('\n');
        }
        result.setRequestHeaders(shown.toString());
    }

    /** The request's first Cookie header, null if it has none. */
    static String cookie(List<HeaderField> headers) {
        for (HeaderField field : headers) {
            if (field.name().equalsIgnoreCase("Cookie")) {
                return field.value();
            }
        }
        return null;
    }
}
