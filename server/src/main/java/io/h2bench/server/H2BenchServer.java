package io.h2bench.server;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import io.h2bench.server.h3.Http3WarmUp;
import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.netem.LatencyProxy;
import io.h2bench.server.netem.LinkProfile;
import io.h2bench.server.netem.kernel.KernelLink;
import io.h2bench.server.objects.TestObjects;

/**
 * The embedded Jetty server: four TCP listeners and the h3 one ({@link Http3Listener}), one set of
 * test objects. Start it on port 0 in tests.
 * With network emulation, Jetty listens on internal loopback ports and a {@link LatencyProxy} per
 * listener takes the public port, so every byte to and from Jetty crosses the emulated link. On the
 * kernel engine ({@link NetworkEngine}) Jetty listens inside the {@link KernelLink}'s network
 * namespace instead, on the requested ports, and clients reach it at the link's address.
 */
public final class H2BenchServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(H2BenchServer.class.getName());

    private final Server server;
    private final Map<Listener, ServerConnector> connectors;
    private final Map<Listener, AtomicLong> accepted;
    private final Map<Listener, RefusalLog> refused;
    private final RequestCounter requests;
    private final Map<Listener, LatencyProxy> proxies;
    private final Http3Listener h3;
    private final TlsMaterial tls;
    private final String host;
    private final LinkProfile network;
    private final NetworkEngine.Choice engine;
    private final TlsProfile tlsProfile;
    private final TlsProvider tlsProvider;
    private final String tlsProviderFallbackReason;
    private final WarmUp.Result warmUp;

    private H2BenchServer(Server server, Map<Listener, ServerConnector> connectors, Map<Listener, AtomicLong> accepted,
                          Map<Listener, RefusalLog> refused, RequestCounter requests, Map<Listener, LatencyProxy> proxies, Http3Listener h3,
                          TlsMaterial tls, ServerSettings settings, TlsProvider tlsProvider, NetworkEngine.Choice engine,
                          WarmUp.Result warmUp) {
        this.server = server;
        this.connectors = connectors;
        this.accepted = accepted;
        this.refused = refused;
        this.requests = requests;
        this.proxies = proxies;
        this.h3 = h3;
        this.tls = tls;
        this.host = engine.link() != null ? engine.link().serverAddress() : uriHost(settings.bind());
        this.network = settings.network();
        this.engine = engine;
        this.tlsProfile = settings.tlsProfile();
        this.tlsProvider = tlsProvider;
        this.tlsProviderFallbackReason = tlsProvider == settings.tlsProvider() ? null : ConscryptTls.unavailableReason();
        this.warmUp = warmUp;
    }

    /** Starts every listener; a port already in use fails with a {@link PortInUseException}. */
    public static H2BenchServer start(ServerSettings settings) throws Exception {
        return start(settings, NetworkEngine.proxy());
    }

    /** Starts every listener behind the network {@code engine} emulates. */
    public static H2BenchServer start(ServerSettings settings, NetworkEngine engine) throws Exception {
        // Before anything draws from the JDK's default random: JSSE's handshake signatures draw from it.
        HandshakeRandom.installAsDefault();
        NetworkEngine.Choice choice = engine.choose(settings.network());
        try {
            return start(settings, choice);
        } catch (Exception | Error e) {
            KernelLinks.closeQuietly(choice.link());
            throw e;
        }
    }

    private static H2BenchServer start(ServerSettings settings, NetworkEngine.Choice choice) throws Exception {
        if (choice.link() != null && !settings.bind().equals(ServerSettings.defaults().bind())) {
            throw new IllegalArgumentException("--bind " + settings.bind() + " applies to the proxy engine and to no emulation: "
                    + "the kernel engine's listeners are at the link's address " + choice.link().serverAddress()
                    + " in a network namespace of their own (--engine proxy listens on " + settings.bind() + ")");
        }
        TlsMaterial tls = tlsMaterial(settings, ServingAddresses.of(settings.bind(), choice.link()));
        boolean emulated = !settings.network().isIdeal() && choice.link() == null;
        QueuedThreadPool threads = new QueuedThreadPool(200, 8);
        threads.setName("h2bench-server");
        Server server = new Server(threads);
        AltSvc altSvc = new AltSvc();
        // Where Conscrypt cannot load (not x86-64, or not on the class path), JSSE, and the banner says why.
        TlsProvider tlsProvider = settings.tlsProvider() == TlsProvider.CONSCRYPT && ConscryptTls.unavailableReason() != null
                ? TlsProvider.JSSE : settings.tlsProvider();
        Connectors factory = new Connectors(server, tls, settings.tlsProfile(), tlsProvider, altSvc, settings.selectors());
        Map<Listener, ServerConnector> connectors = new EnumMap<>(Listener.class);
        Map<Listener, AtomicLong> accepted = new EnumMap<>(Listener.class);
        Map<Listener, RefusalLog> refused = new EnumMap<>(Listener.class);
        String jettyHost = choice.link() != null ? choice.link().serverAddress() : emulated ? "127.0.0.1" : settings.bind();
        for (Listener listener : Listener.values()) {
            ServerConnector connector = factory.create(listener);
            connector.setName(listener.id());
            connector.setHost(jettyHost);
            connector.setPort(emulated ? 0 : settings.port(listener));
            AtomicLong count = new AtomicLong();
            connector.getSelectorManager().addEventListener(new SelectorManager.AcceptListener() {
                @Override
                public void onAccepted(SelectableChannel channel) {
                    count.incrementAndGet();
                }
            });
            // Behind the byte proxy every connection comes from the proxy: only the listener's cap can apply.
            int perClient = emulated ? settings.maxConnections() : settings.maxConnectionsPerClient();
            RefusalLog refusals = new RefusalLog(listener.id(), server.getScheduler(), LOG::warning);
            connector.getSelectorManager().addEventListener(new ConnectionCap(settings.maxConnections(), perClient, refusals));
            server.addConnector(connector);
            connectors.put(listener, connector);
            accepted.put(listener, count);
            refused.put(listener, refusals);
        }
        Http3Listener h3 = emulated ? Http3Listener.notStarted(Http3Listener.BEHIND_BYTE_PROXY) : factory.http3(jettyHost, settings.quic());
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        server.setErrorHandler(errors);
        Handler objects = TestObjects.handler();
        RequestCounter requests = settings.countRequests() ? new RequestCounter(objects) : null;
        server.setHandler(requests != null ? requests : objects);
        server.setStopAtShutdown(true);
        try {
            KernelLinks.open(choice.link(), connectors.values());
            h3.open(choice.link(), settings.h3Port(), connectors.get(Listener.H2).getLocalPort());
            altSvc.advertise(h3.port());
            server.start();
        } catch (IOException e) {
            Exception failure = bindFailure(settings, connectors, h3, e);
            server.stop();
            throw failure;
        }
        Map<Listener, InetSocketAddress> targets = warmUpTargets(connectors, jettyHost);
        WarmUp.Result warmUp;
        try (Http3WarmUp h3WarmUp = h3.warmUp(choice.link(), targets.get(Listener.H2).getHostString(), settings.warmUpConnections())) {
            warmUp = WarmUp.run(targets, socketOpener(choice.link()), h3WarmUp, settings.warmUpConnections());
        }
        // A test or a user counts its own connections and requests, not the warm-up's.
        accepted.values().forEach(count -> count.set(0));
        if (requests != null) {
            requests.clear();
        }
        Map<Listener, LatencyProxy> proxies = new EnumMap<>(Listener.class);
        if (emulated) {
            try {
                startProxies(settings, connectors, proxies);
            } catch (IOException e) {
                proxies.values().forEach(LatencyProxy::close);
                server.stop();
                throw e;
            }
        }
        return new H2BenchServer(server, connectors, accepted, refused, requests, proxies, h3, tls, settings, tlsProvider, choice, warmUp);
    }

    /** Jetty's own address of each listener (behind the byte proxy: its internal port; a wildcard bind: loopback). */
    private static Map<Listener, InetSocketAddress> warmUpTargets(Map<Listener, ServerConnector> connectors, String jettyHost) {
        String host = switch (jettyHost) {
            case "0.0.0.0" -> "127.0.0.1";
            case "::" -> "::1";
            default -> jettyHost;
        };
        Map<Listener, InetSocketAddress> targets = new EnumMap<>(Listener.class);
        connectors.forEach((listener, connector) -> targets.put(listener, new InetSocketAddress(host, connector.getLocalPort())));
        return targets;
    }

    /** Sockets that reach the listeners: inside the kernel link's namespace when there is one, where its address is local. */
    private static WarmUp.SocketOpener socketOpener(KernelLink link) {
        return link == null ? SocketChannel::open : () -> link.inNamespace(SocketChannel::open);
    }

    private static void startProxies(ServerSettings settings, Map<Listener, ServerConnector> connectors,
                                     Map<Listener, LatencyProxy> proxies) throws IOException {
        for (Listener listener : Listener.values()) {
            InetSocketAddress front = new InetSocketAddress(settings.bind(), settings.port(listener));
            InetSocketAddress jetty = new InetSocketAddress("127.0.0.1", connectors.get(listener).getLocalPort());
            try {
                proxies.put(listener, LatencyProxy.start(front, jetty, settings.network()));
            } catch (BindException e) {
                throw new PortInUseException(listener.id(), settings.bind(), settings.port(listener), e);
            }
        }
    }

    /** The port clients connect to: the emulator's when the network is emulated, else Jetty's. */
    public int port(Listener listener) {
        LatencyProxy proxy = proxies.get(listener);
        return proxy != null ? proxy.address().getPort() : connectors.get(listener).getLocalPort();
    }

    /** The h3 listener's UDP port, the same number as h2's unless moved; 0 when it did not start ({@link #h3NotStartedReason()}). */
    public int h3Port() {
        return h3.port();
    }

    /** The h3 listener's QUIC settings, or null when it did not start. */
    public QuicOptions h3Options() {
        return h3.options();
    }

    /** Whether the h3 listener writes a paced burst's datagrams in one system call (GSO). */
    public boolean h3SegmentsWrites() {
        return h3.segmentsWrites();
    }

    /** Why there is no h3 listener (the byte proxy carries no UDP), or null. */
    public String h3NotStartedReason() {
        return h3.notStartedReason();
    }

    /** {@code https://host:port} of the h3 listener (a URI names no transport: QUIC clients must be told). */
    public URI h3BaseUri() {
        return URI.create("https://" + host + ":" + h3Port());
    }

    /** Jetty's connector of a listener: tests shorten its idle timeout to see slow clients closed in seconds. */
    ServerConnector connector(Listener listener) {
        return connectors.get(listener);
    }

    /** Selector threads of each TCP listener (all alike): {@code --selectors}, or Jetty's count for this machine. */
    public int selectorsPerListener() {
        return connectors.get(Listener.H1).getSelectorManager().getSelectorCount();
    }

    /** Server threads running a job now (selectors and acceptors included): tests see what slow clients hold. */
    int busyThreads() {
        return ((QueuedThreadPool) server.getThreadPool()).getBusyThreads();
    }

    /** The emulated network in front of every listener ({@link LinkProfile#isIdeal()} when none). */
    public LinkProfile network() {
        return network;
    }

    /** The kernel link the listeners live behind, or null (proxy engine, or no emulation). */
    public KernelLink kernelLink() {
        return engine.link();
    }

    /** Why the auto engine took the proxy, or null. */
    public String engineFallbackReason() {
        return engine.fallbackReason();
    }

    /** {@code http(s)://host:port} of a listener, with the real port when it was 0. */
    public URI baseUri(Listener listener) {
        return URI.create(listener.scheme() + "://" + host + ":" + port(listener));
    }

    /** TCP connections this listener accepted since start: tests count a client's connections with it. */
    public long connectionsAccepted(Listener listener) {
        return accepted.get(listener).get();
    }

    /** What a listener's connection caps refused since start: connections, and the log lines that told of them. */
    RefusalLog refusals(Listener listener) {
        return refused.get(listener);
    }

    /**
     * Requests for a path with its query ({@code /articles/1}, {@code /articles?count=25}) on all
     * listeners since start, server pushes included: tests count a client's requests with it. Only
     * when the settings ask for it (ephemeral ones do).
     */
    public long requestsReceived(String pathAndQuery) {
        if (requests == null) {
            throw new IllegalStateException("requests are counted only with ServerSettings.countRequests() (ServerSettings.ephemeral())");
        }
        return requests.count(pathAndQuery);
    }

    /** Lower-case names of the headers the requests for {@code pathAndQuery} carried (counted requests only, as above). */
    public Set<String> headerNamesReceived(String pathAndQuery) {
        if (requests == null) {
            throw new IllegalStateException("requests are recorded only with ServerSettings.countRequests() (ServerSettings.ephemeral())");
        }
        return requests.headerNames(pathAndQuery);
    }

    public TlsMaterial tls() {
        return tls;
    }

    /** The certificate kind a generated key store gets and the cipher order ({@code --tls-profile}). */
    public TlsProfile tlsProfile() {
        return tlsProfile;
    }

    /** What runs the TCP TLS listeners: the one {@code --tls-provider} asked for, or JSSE where Conscrypt cannot load. */
    public TlsProvider tlsProvider() {
        return tlsProvider;
    }

    /** Why the TCP TLS listeners run on JSSE though Conscrypt was asked for; {@code null} when they run on what was asked. */
    public String tlsProviderFallbackReason() {
        return tlsProviderFallbackReason;
    }

    /** The connections the server made to itself before it was ready ({@link WarmUp}). */
    public WarmUp.Result warmUp() {
        return warmUp;
    }

    /** Blocks until the server stops (Ctrl-C in the console). */
    public void join() throws InterruptedException {
        server.join();
    }

    @Override
    public void close() {
        proxies.values().forEach(LatencyProxy::close);
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("server did not stop cleanly: " + e.getMessage(), e);
        } finally {
            KernelLinks.closeQuietly(engine.link());
        }
    }

    private static TlsMaterial tlsMaterial(ServerSettings settings, List<String> addresses) throws IOException {
        if (settings.keystore() != null) {
            String password = settings.keystorePassword() == null ? "" : settings.keystorePassword();
            return TlsMaterial.load(settings.keystore(), password, false);
        }
        TlsProfile.KeyType keyType = settings.tlsProfile().keyType();
        return TlsMaterial.load(TlsMaterial.defaultKeystore(keyType), TlsMaterial.GENERATED_PASSWORD, true, addresses, keyType);
    }

    private static Exception bindFailure(ServerSettings settings, Map<Listener, ServerConnector> connectors, Http3Listener h3,
                                         IOException e) {
        if (!(e instanceof BindException) && !(e.getCause() instanceof BindException)) {
            return e;
        }
        for (Map.Entry<Listener, ServerConnector> entry : connectors.entrySet()) {
            if (entry.getValue().getLocalPort() <= 0 && settings.port(entry.getKey()) != 0) {
                return new PortInUseException(entry.getKey().id(), settings.bind(), settings.port(entry.getKey()), e);
            }
        }
        if (h3.started() && h3.port() == 0) {
            String onH2 = settings.h3Port() == Http3Listener.ON_H2_PORT ? " (UDP, the h2 listener's number; --h3-port moves it)" : " (UDP)";
            return new PortInUseException(Http3Listener.ID + onH2, settings.bind(), h3.requestedPort(), e);
        }
        return e;
    }

    private static String uriHost(String bind) {
        if (bind.equals("0.0.0.0") || bind.equals("::")) {
            return "127.0.0.1";
        }
        return bind.contains(":") ? "[" + bind + "]" : bind;
    }

    /** A listener's port is taken by another program. */
    public static final class PortInUseException extends IOException {

        PortInUseException(String listener, String bind, int port, Throwable cause) {
            super("port " + port + " on " + bind + " for " + listener + " is already in use", cause);
        }
    }
}
