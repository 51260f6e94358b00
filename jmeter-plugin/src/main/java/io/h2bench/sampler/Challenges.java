package io.h2bench.sampler;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import java.net.MalformedURLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.http.Header;
import org.apache.http.auth.AUTH;
import org.apache.http.auth.AuthenticationException;
import org.apache.http.auth.ContextAwareAuthScheme;
import org.apache.http.auth.MalformedChallengeException;
import org.apache.http.auth.UsernamePasswordCredentials;
import org.apache.http.impl.auth.BasicScheme;
import org.apache.http.impl.auth.DigestScheme;
import org.apache.http.message.BasicHeader;
import org.apache.http.message.BasicHttpRequest;
import org.apache.http.protocol.BasicHttpContext;
import org.apache.jmeter.protocol.http.control.AuthManager;
import org.apache.jmeter.protocol.http.control.Authorization;

/**
 * Answers a 401 challenge with the Authorization Manager's credentials, as JMeter's HttpClient4
 * sampler does through HttpClient: Digest (preferred, computed by HttpClient's own
 * {@link DigestScheme}) or Basic when no Basic header went out preemptively. One answer per request.
 * A Kerberos entry is not negotiated: the sample fails saying so, rather than differ silently.
 */
final class Challenges {

    static final String KERBEROS_UNSUPPORTED = "The server asked to authenticate and the Authorization Manager's entry"
            + " is Kerberos, which the h2bench sampler does not negotiate (JMeter's HttpClient4 sampler does)";

    private Challenges() {
    }

    /** One request and, after a challenge it can answer, the answered request. */
    interface Hop {
        ExchangeResult send(ExchangeRequest request) throws InterruptedException;
    }

    static ExchangeResult answer(AuthManager auth, ExchangeRequest request, ExchangeResult result, Hop hop)
            throws InterruptedException {
        if (auth == null || result.failed() || result.status() != 401) {
            return result;
        }
        if (isKerberos(auth, request)) {
            return result.failedWith(KERBEROS_UNSUPPORTED, new UnsupportedOperationException(KERBEROS_UNSUPPORTED));
        }
        Optional<HeaderField> authorization = authorization(auth, request, result);
        if (authorization.isEmpty()) {
            return result;
        }
        List<HeaderField> headers = new ArrayList<>(request.headers());
        headers.removeIf(field -> field.name().equalsIgnoreCase("Authorization"));
        headers.add(authorization.get());
        return result.followedBy(hop.send(request.withHeaders(headers)));
    }

    /** A KERBEROS entry for a challenged URL: HttpClient4 would negotiate, this sampler cannot. */
    private static boolean isKerberos(AuthManager auth, ExchangeRequest request) {
        try {
            Authorization credentials = auth.getAuthForURL(request.uri().toURL());
            return credentials != null && credentials.getMechanism() == AuthManager.Mechanism.KERBEROS;
        } catch (MalformedURLException | IllegalArgumentException notAUrl) {
            return false;
        }
    }

    private static Optional<HeaderField> authorization(AuthManager auth, ExchangeRequest request, ExchangeResult result) {
        Authorization credentials;
        try {
            credentials = auth.getAuthForURL(request.uri().toURL());
        } catch (MalformedURLException | IllegalArgumentException notAUrl) {
            return Optional.empty();
        }
        if (credentials == null) {
            return Optional.empty();
        }
        boolean sentBasic = request.headers().stream().anyMatch(field -> field.name().equalsIgnoreCase("Authorization"));
        for (String scheme : List.of("digest", "basic")) {
            Optional<String> challenge = challenge(result, scheme);
            if (challenge.isPresent() && !(scheme.equals("basic") && sentBasic)) {
                return respond(scheme, challenge.get(), credentials, request);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> challenge(ExchangeResult result, String scheme) {
        return result.responseHeaders().stream()
                .filter(field -> field.name().equalsIgnoreCase(AUTH.WWW_AUTH))
                .map(HeaderField::value)
                .filter(value -> value.toLowerCase(Locale.ROOT).startsWith(scheme))
                .findFirst();
    }

    /** HttpClient's scheme reads the challenge and writes the answer; a realm set in the manager must match. */
    private static Optional<HeaderField> respond(String name, String challenge, Authorization credentials, ExchangeRequest request) {
        ContextAwareAuthScheme scheme = name.equals("digest") ? new DigestScheme() : new BasicScheme();
        try {
            scheme.processChallenge(new BasicHeader(AUTH.WWW_AUTH, challenge));
            String realm = credentials.getRealm();
            if (realm != null && !realm.isBlank() && !realm.equals(scheme.getRealm())) {
                return Optional.empty();
            }
            String target = request.uri().getRawPath() + (request.uri().getRawQuery() == null ? "" : "?" + request.uri().getRawQuery());
            Header header = scheme.authenticate(new UsernamePasswordCredentials(credentials.getUser(), credentials.getPass()),
                    new BasicHttpRequest(request.method(), target), new BasicHttpContext());
            return Optional.of(new HeaderField(header.getName(), header.getValue()));
        } catch (MalformedChallengeException | AuthenticationException unusable) {
            return Optional.empty();
        }
    }
}
