package io.h2bench.client.connect;

import io.h2bench.client.profile.ConnectionProfile;
import io.h2bench.client.profile.HostResolver;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * Applies a user's {@link ConnectionProfile} where a connection is made ({@code OriginConnector}
 * puts it in the connection's context): host name resolution by the profile's resolver (JMeter's
 * DNS Cache Manager), else Jetty's asynchronous one; the source address, bandwidth and client
 * certificate are read from the same context ({@code WiretapConnector}, {@code ProfileTls}).
 */
public final class ProfileRouting implements SocketAddressResolver {

    /** The context key of the profile of a connection the sampler opens. */
    static final String PROFILE_CONTEXT_KEY = ConnectionProfile.class.getName();

    private final SocketAddressResolver system;

    ProfileRouting(SocketAddressResolver system) {
        this.system = system;
    }

    /** The profile of the connection being made, DIRECT when the context names none. */
    static ConnectionProfile profileOf(Map<String, Object> context) {
        return context != null && context.get(PROFILE_CONTEXT_KEY) instanceof ConnectionProfile own ? own : ConnectionProfile.DIRECT;
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

}
