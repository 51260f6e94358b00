package io.h2bench.client.connect;

import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.client.profile.HostResolver;
import io.h2bench.client.profile.ProxySettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.client.Authentication;
import org.eclipse.jetty.client.BasicAuthentication;
import org.eclipse.jetty.client.Destination;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpProxy;
import org.eclipse.jetty.client.Origin;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * Applies a user's {@link ConnectionProfile} where Jetty decides how to reach an origin: the proxy
 * (one {@link HttpProxy} per distinct proxy, matching only the destinations whose tag asks for it)
 * and host name resolution (the profile's resolver, else Jetty's asynchronous one).
 */
public final class ProfileRouting implements SocketAddressResolver {

    private final HttpClient client;
    private final SocketAddressResolver system;
    private final Set<ProxySettings> proxies = ConcurrentHashMap.newKeySet();

    ProfileRouting(HttpClient client, SocketAddressResolver system) {
        this.client = client;
        this.system = system;
    }

    /** The context key of the profile of a connection the sampler opens without a Jetty destination. */
    static final String PROFILE_CONTEXT_KEY = ConnectionProfile.class.getName();

    /** The profile of the destination a connection is being made for (DIRECT when untagged). */
    static ConnectionProfile profileOf(Map<String, Object> context) {
        if (context != null && context.get(PROFILE_CONTEXT_KEY) instanceof ConnectionProfile own) {
            return own;
        }
        Object destination = context == null ? null : context.get(Destination.CONTEXT_KEY);
        return destination instanceof Destination known ? profileOf(known.getOrigin()) : ConnectionProfile.DIRECT;
    }

    /** The origin of the destination a connection is being opened for, or null. */
    static Origin originOf(Map<String, Object> context) {
        Object destination = context == null ? null : context.get(Destination.CONTEXT_KEY);
        return destination instanceof Destination known ? known.getOrigin() : null;
    }

    static ConnectionProfile profileOf(Origin origin) {
        return origin.getTag() instanceof UserTag tag ? tag.profile() : ConnectionProfile.DIRECT;
    }

    /** Makes the client route this profile's requests through its proxy (once per distinct proxy). */
    public void register(ConnectionProfile profile) {
        ProxySettings proxy = profile.proxy();
        if (proxy == null || !proxies.add(proxy)) {
            return;
        }
        TaggedProxy jettyProxy = new TaggedProxy(proxy);
        if (proxy.authenticates()) {
            // Answers the proxy's 407 challenge, for CONNECT tunnels too, as HttpClient4 does.
            client.getAuthenticationStore().addAuthentication(new BasicAuthentication(jettyProxy.getURI(),
                    Authentication.ANY_REALM, proxy.user(), proxy.password() == null ? "" : proxy.password()));
        }
        client.getProxyConfiguration().addProxy(jettyProxy);
    }

    @Override
    public void resolve(String host, int port, Map<String, Object> context, Promise<List<InetSocketAddress>> promise) {
        HostResolver resolver = profileOf(context).resolver();
        if (resolver == null) {
            system.resolve(host, port, context, promise);
            return;
        }
        try {
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (InetAddress address : resolver.resolve(host)) {
                addresses.add(new InetSocketAddress(address, port));
            }
            if (addresses.isEmpty()) {
                throw new UnknownHostException(host + ": the DNS Cache Manager returned no address");
            }
            promise.succeeded(addresses);
        } catch (UnknownHostException | RuntimeException failure) {
            promise.failed(failure);
        }
    }

    /** A proxy that serves only the destinations of users whose profile names it. */
    private static final class TaggedProxy extends HttpProxy {

        private final ProxySettings settings;

        TaggedProxy(ProxySettings settings) {
            super(new Origin.Address(settings.host(), settings.port()), settings.secure());
            this.settings = settings;
        }

        @Override
        public boolean matches(Origin origin) {
            return settings.equals(profileOf(origin).proxyFor(origin.getAddress().getHost()));
        }
    }
}
