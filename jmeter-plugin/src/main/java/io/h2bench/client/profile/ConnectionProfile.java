package io.h2bench.client.profile;

import java.net.InetAddress;

/**
 * How a virtual user's connections are made, beyond the origin: the local address they are bound
 * to, the proxy they go through, who resolves host names, a bandwidth limit and a client
 * certificate, and whose protocol settings it announces (a {@link BrowserPreset}). Part of the
 * user's request tag, so requests with different profiles never share a connection, while one
 * profile keeps its connections across requests.
 *
 * @param sourceAddress local address to bind to (JMeter's "Source address"), null for any
 * @param proxy         the HTTP proxy, null for direct connections
 * @param resolver      host name resolution (JMeter's DNS Cache Manager), null for the system's
 * @param cps           bytes per second each connection may read and write (JMeter's
 *                      {@code httpclient.socket.http(s).cps}), 0 for no limit
 * @param certificate   client certificate offered in TLS handshakes, null for none
 * @param preset        the HTTP/2 SETTINGS and windows and the QUIC transport parameters announced
 */
public record ConnectionProfile(InetAddress sourceAddress, ProxySettings proxy, HostResolver resolver, int cps,
                                ClientCertificate certificate, BrowserPreset preset) {

    /** Direct, unbound, system DNS, no limit, no certificate, Chrome's settings. */
    public static final ConnectionProfile DIRECT = new ConnectionProfile(null, null, null, 0, null);

    public ConnectionProfile {
        if (cps < 0) {
            throw new IllegalArgumentException("cps must not be negative, was " + cps);
        }
        if (preset == null) {
            preset = BrowserPreset.CHROME;
        }
    }

    /** With Chrome's settings, the default. */
    public ConnectionProfile(InetAddress sourceAddress, ProxySettings proxy, HostResolver resolver, int cps,
                             ClientCertificate certificate) {
        this(sourceAddress, proxy, resolver, cps, certificate, BrowserPreset.CHROME);
    }

    /** This profile announcing {@code other}'s settings. */
    public ConnectionProfile withPreset(BrowserPreset other) {
        return new ConnectionProfile(sourceAddress, proxy, resolver, cps, certificate, other);
    }

    /** The proxy to use for {@code host}, or null when this profile goes direct to it. */
    public ProxySettings proxyFor(String host) {
        return proxy == null || proxy.bypasses(host) ? null : proxy;
    }
}
