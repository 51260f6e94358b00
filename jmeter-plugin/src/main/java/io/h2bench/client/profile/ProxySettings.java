package io.h2bench.client.profile;

import java.util.List;
import java.util.Locale;

/**
 * An HTTP proxy as JMeter's HTTP Request configures it (sampler fields, or {@code -H/-P} on the
 * command line): HTTPS goes through it with {@code CONNECT}, HTTP as absolute-form requests.
 *
 * @param scheme        {@code http} or {@code https} (the connection to the proxy itself)
 * @param user          for Basic proxy authentication, null or empty for none
 * @param nonProxyHosts hosts that go direct: an exact name, or {@code *} and a suffix, e.g. {@code *.example.org}
 */
public record ProxySettings(String scheme, String host, int port, String user, String password, List<String> nonProxyHosts) {

    public ProxySettings {
        scheme = scheme == null || scheme.isBlank() ? "http" : scheme.trim().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("Proxy scheme must be http or https, was '" + scheme + "'");
        }
        if (host == null || host.isBlank() || port <= 0 || port > 65_535) {
            throw new IllegalArgumentException("A proxy needs a host and a port in 1-65535, was '" + host + "':" + port);
        }
        nonProxyHosts = nonProxyHosts == null ? List.of() : List.copyOf(nonProxyHosts);
    }

    public boolean secure() {
        return scheme.equals("https");
    }

    public boolean authenticates() {
        return user != null && !user.isEmpty();
    }

    /** JMeter's rule ({@code http.nonProxyHosts}): {@code *.example.org} is a suffix, anything else an exact host. */
    boolean bypasses(String target) {
        for (String pattern : nonProxyHosts) {
            boolean matches = pattern.startsWith("*") ? target.endsWith(pattern.substring(1)) : target.equals(pattern);
            if (matches) {
                return true;
            }
        }
        return false;
    }
}
