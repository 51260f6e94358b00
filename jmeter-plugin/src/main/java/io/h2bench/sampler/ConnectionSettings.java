package io.h2bench.sampler;

import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.profile.ClientCertificate;
import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.client.profile.HostResolver;
import io.h2bench.client.profile.ProxySettings;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.URL;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.protocol.http.control.DNSCacheManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.util.JMeterUtils;

/**
 * How JMeter's HTTP Request (HttpClient4) would make this sample's connections, as a
 * {@link ConnectionProfile}: the sampler's proxy fields or the {@code -H/-P} proxy, the source
 * address field, the DNS Cache Manager, {@code httpclient.socket.http(s).cps} and the client
 * certificate of {@code javax.net.ssl.keyStore} ({@link UserCertificate}), and the h2bench sampler's
 * browser preset. Read the way {@code HTTPHCAbstractImpl} reads them.
 */
final class ConnectionSettings {

    private static final String STATIC_PROXY_HOST = System.getProperty("http.proxyHost", "");
    private static final int STATIC_PROXY_PORT = Integer.parseInt(System.getProperty("http.proxyPort", "0"));
    private static final List<String> NON_PROXY_HOSTS = Arrays.stream(System.getProperty("http.nonProxyHosts", "").split("\\|"))
            .filter(host -> !host.isEmpty()).toList();
    private static final int CPS_HTTP = JMeterUtils.getPropDefault("httpclient.socket.http.cps", 0);
    private static final int CPS_HTTPS = JMeterUtils.getPropDefault("httpclient.socket.https.cps", 0);

    private ConnectionSettings() {
    }

    static ConnectionProfile of(HTTPSamplerBase sampler, URL url) throws IOException {
        boolean secure = "https".equalsIgnoreCase(url.getProtocol());
        DNSCacheManager dns = sampler.getDNSResolver();
        BrowserPreset preset = sampler instanceof Http2Sampler h2 ? h2.getBrowserPreset() : BrowserPreset.CHROME;
        InetAddress source = sourceAddress(sampler);
        ProxySettings proxy = proxy(sampler);
        int cps = secure ? CPS_HTTPS : CPS_HTTP;
        ClientCertificate certificate = secure ? UserCertificate.current() : null;
        if (source == null && proxy == null && dns == null && cps == 0 && certificate == null && preset == BrowserPreset.CHROME) {
            // Most samples, each asking: the shared profile without building one to compare with it.
            return ConnectionProfile.DIRECT;
        }
        return new ConnectionProfile(source, proxy, dns == null ? null : new CacheManagerResolver(dns), cps, certificate, preset);
    }

    /**
     * A redirect hop's profile: from http to https (or back) it takes that scheme's certificate and cps,
     * as a new request would; on the same scheme, the first request's {@code profile}.
     */
    static ConnectionProfile forHop(HTTPSamplerBase sampler, URI hop, URI first, ConnectionProfile profile) {
        if (hop.getScheme().equalsIgnoreCase(first.getScheme())) {
            return profile;
        }
        try {
            return of(sampler, hop.toURL());
        } catch (IOException unreadable) {
            return profile; // only the source address can fail, and it was read once already
        }
    }

    /** The sampler's proxy fields win over the command line's, which skips the non-proxy hosts. */
    private static ProxySettings proxy(HTTPSamplerBase sampler) {
        if (!sampler.getProxyHost().isBlank() && sampler.getProxyPortInt() > 0) {
            return new ProxySettings(sampler.getProxyScheme(), sampler.getProxyHost().trim(), sampler.getProxyPortInt(),
                    sampler.getProxyUser(), sampler.getProxyPass(), List.of());
        }
        if (STATIC_PROXY_HOST.isEmpty() || STATIC_PROXY_PORT <= 0) {
            return null;
        }
        return new ProxySettings(System.getProperty("http.proxyScheme", "http"), STATIC_PROXY_HOST, STATIC_PROXY_PORT,
                JMeterUtils.getPropDefault(JMeter.HTTP_PROXY_USER, ""), JMeterUtils.getPropDefault(JMeter.HTTP_PROXY_PASS, ""),
                NON_PROXY_HOSTS);
    }

    /** The "Source address" field: an IP or host name, or a network device's (IPv4 or IPv6) address. */
    private static InetAddress sourceAddress(HTTPSamplerBase sampler) throws IOException {
        String source = sampler.getIpSource().trim();
        if (source.isEmpty()) {
            return null;
        }
        HTTPSamplerBase.SourceType type = HTTPSamplerBase.SourceType.values()[sampler.getIpSourceType()];
        if (type == HTTPSamplerBase.SourceType.HOSTNAME) {
            return InetAddress.getByName(source);
        }
        NetworkInterface device = NetworkInterface.getByName(source);
        if (device == null) {
            throw new UnknownHostException("Cannot find interface " + source);
        }
        Class<? extends InetAddress> family = type == HTTPSamplerBase.SourceType.DEVICE_IPV4 ? Inet4Address.class
                : type == HTTPSamplerBase.SourceType.DEVICE_IPV6 ? Inet6Address.class : InetAddress.class;
        for (InterfaceAddress address : device.getInterfaceAddresses()) {
            if (family.isInstance(address.getAddress())) {
                return address.getAddress();
            }
        }
        throw new UnknownHostException("Interface " + source + " does not have address of type " + family.getSimpleName());
    }

    /** JMeter's DNS Cache Manager (one per thread), equal for the same manager so connections are reused. */
    private record CacheManagerResolver(DNSCacheManager manager) implements HostResolver {
        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            return manager.resolve(host);
        }
    }
}
