package io.h2bench.client.connect;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.ProxySettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A user's route to one origin through an HTTP proxy, as HttpClient4 keeps one per (thread, origin,
 * proxy, tunnelled): plain http goes to the proxy as absolute-form requests, https through a {@code CONNECT}
 * tunnel ({@link ProxyTunnel}), and so does HTTP/2 by prior knowledge to an http origin (h2c), which a
 * proxy carries only as bytes in a tunnel, as curl's {@code --http2-prior-knowledge --proxytunnel} sends it. It also holds what the proxy said about the user's credentials, as
 * HttpClient4's proxy {@code AuthState} does: none are sent until the proxy asks for them (a 407
 * with a Basic challenge), the request or CONNECT then goes once more with them, and from then on
 * every request (plain http) or CONNECT (https) of the route carries them at once. A proxy that
 * refused them gets none again, and its 407 is the sample's answer.
 */
public final class ProxyHop {

    private enum Credentials { UNASKED, ASKED, ACCEPTED, REFUSED }

    private final ProxySettings proxy;
    private final String host;
    private final int port;
    private final boolean tunnels;
    private Credentials credentials = Credentials.UNASKED;

    ProxyHop(ProxySettings proxy, URI origin, boolean tunnels) {
        this.proxy = proxy;
        this.tunnels = tunnels;
        this.host = origin.getHost();
        this.port = origin.getPort() > 0 ? origin.getPort() : "https".equalsIgnoreCase(origin.getScheme()) ? 443 : 80;
    }

    /**
     * Whether a request in {@code mode} to {@code origin} goes through a CONNECT tunnel: an https origin,
     * and HTTP/2 by prior knowledge (H2C, or HTTP_2 on an http URL), whose preface and frames a proxy
     * speaking HTTP/1.1 to its clients can only relay. The h2c Upgrade is an HTTP/1.1 request: absolute form.
     */
    public static boolean tunnels(URI origin, ProtocolMode mode) {
        return "https".equalsIgnoreCase(origin.getScheme()) || mode == ProtocolMode.H2C || mode == ProtocolMode.HTTP_2;
    }

    public ProxySettings proxy() {
        return proxy;
    }

    /** Reached through a CONNECT tunnel (an https origin, or h2c by prior knowledge); else plain http, in absolute-form requests. */
    public boolean tunnels() {
        return tunnels;
    }

    /** The origin as a CONNECT request names it: host and port. */
    String authority() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    /** The {@code Proxy-Authorization} value a request or CONNECT of this route carries now, or null. */
    public synchronized String authorization() {
        if (credentials != Credentials.ASKED && credentials != Credentials.ACCEPTED) {
            return null;
        }
        String password = proxy.password() == null ? "" : proxy.password();
        byte[] pair = (proxy.user() + ":" + password).getBytes(StandardCharsets.ISO_8859_1);
        return "Basic " + Base64.getEncoder().encodeToString(pair);
    }

    /**
     * The proxy answered {@code status}, with {@code challenge} (its {@code Proxy-Authenticate}), to a
     * request or CONNECT that carried the credentials or not. True when it goes once more, with them:
     * a 407 with a Basic challenge to one without them, when the plan has credentials and the proxy has
     * not refused them before.
     */
    public synchronized boolean sendAgain(int status, String challenge, boolean carriedCredentials) {
        if (status != 407) {
            if (carriedCredentials) {
                credentials = Credentials.ACCEPTED;
            }
            return false;
        }
        boolean basic = challenge != null && challenge.regionMatches(true, 0, "Basic", 0, 5);
        if (!basic || !proxy.authenticates() || credentials == Credentials.REFUSED) {
            return false;
        }
        if (carriedCredentials) {
            credentials = Credentials.REFUSED;
            return false;
        }
        credentials = Credentials.ASKED;
        return true;
    }
}
