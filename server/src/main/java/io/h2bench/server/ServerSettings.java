package io.h2bench.server;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.netem.LinkProfile;

/**
 * What the server needs to start: the address to bind, one port per listener (0 = ephemeral) and
 * the TLS key store ({@code null} = a generated self-signed certificate, see {@link TlsMaterial})
 * the emulated network in front of every listener, and whether requests are counted per path and
 * query ({@link H2BenchServer#requestsReceived}): on for tests, off for the server a user runs, whose
 * count of distinct URLs a long load run with varied queries would grow without bound; and how many
 * connections a listener keeps open, in all and from one client address ({@link ConnectionCap}); and
 * the h3 listener's UDP port ({@link Http3Listener#ON_H2_PORT}: the number the h2 listener got) and
 * its QUIC settings ({@link QuicOptions}); the TLS profile ({@link TlsProfile}: the generated
 * certificate's key, the cipher order) and provider ({@link TlsProvider}: BoringSSL or JSSE); and how
 * many connections per listener (TCP and h3) the server makes to itself before it is ready ({@link WarmUp}:
 * none in tests, which start hundreds of servers); and how many selector threads each TCP listener runs.
 */
public record ServerSettings(String bind, Map<Listener, Integer> ports, Path keystore, String keystorePassword,
                             LinkProfile network, boolean countRequests, int maxConnections, int maxConnectionsPerClient,
                             int h3Port, QuicOptions quic, TlsProfile tlsProfile, TlsProvider tlsProvider,
                             int warmUpConnections, int selectors) {

    /** Open connections per listener: four listeners stay within a 20,000 file-descriptor limit, proxied too. */
    public static final int DEFAULT_MAX_CONNECTIONS = 4096;
    /** Open connections per listener from one client address: 170 users of six HTTP/1.1 connections each. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 1024;
    /** Selectors per TCP listener as Jetty counts them: max(1, min(cores / 2, threads / 16)), one on two cores. */
    public static final int JETTY_SELECTORS = 0;

    public ServerSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(quic, "quic");
        Objects.requireNonNull(tlsProfile, "tlsProfile");
        Objects.requireNonNull(tlsProvider, "tlsProvider");
        if (selectors < 0) {
            throw new IllegalArgumentException("selectors must be 0 (Jetty's choice) or more, were " + selectors);
        }
        if (warmUpConnections < 0) {
            throw new IllegalArgumentException("warm-up connections must be 0 or more, were " + warmUpConnections);
        }
        ports = Map.copyOf(ports);
        for (Listener listener : Listener.values()) {
            int port = ports.getOrDefault(listener, -1);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port of " + listener.id() + " must be 0..65535, was " + port);
            }
        }
        if (h3Port < Http3Listener.ON_H2_PORT || h3Port > 65535) {
            throw new IllegalArgumentException("port of " + Http3Listener.ID + " must be 0..65535, was " + h3Port);
        }
        if (maxConnections < 1 || maxConnectionsPerClient < 1) {
            throw new IllegalArgumentException("connection caps must be at least 1, were " + maxConnections
                    + " per listener and " + maxConnectionsPerClient + " per client");
        }
    }

    /** Loopback, the seed's ports 8000 to 8003 and h3 on h2's, the generated certificate under the user's home, the warm-up. */
    public static ServerSettings defaults() {
        Map<Listener, Integer> ports = new EnumMap<>(Listener.class);
        for (Listener listener : Listener.values()) {
            ports.put(listener, listener.defaultPort());
        }
        return new ServerSettings("127.0.0.1", ports, null, null, LinkProfile.ideal(), false,
                DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_CLIENT, Http3Listener.ON_H2_PORT,
                QuicOptions.defaults(), TlsProfile.WEB, TlsProvider.CONSCRYPT, WarmUp.DEFAULT_CONNECTIONS, JETTY_SELECTORS);
    }

    /**
     * Loopback, every port chosen by the system, requests counted, no warm-up: for tests. h3's too: on
     * h2's number a UDP socket elsewhere that happens to hold it would fail the start.
     */
    public static ServerSettings ephemeral() {
        Map<Listener, Integer> ports = new EnumMap<>(Listener.class);
        for (Listener listener : Listener.values()) {
            ports.put(listener, 0);
        }
        return new ServerSettings("127.0.0.1", ports, null, null, LinkProfile.ideal(), true,
                DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_CLIENT, 0, QuicOptions.defaults(), TlsProfile.WEB, TlsProvider.CONSCRYPT, 0, JETTY_SELECTORS);
    }

    public int port(Listener listener) {
        return ports.get(listener);
    }

    public ServerSettings withPort(Listener listener, int port) {
        Map<Listener, Integer> changed = new EnumMap<>(ports);
        changed.put(listener, port);
        return new ServerSettings(bind, changed, keystore, keystorePassword, network, countRequests, maxConnections, maxConnectionsPerClient, h3Port, quic, tlsProfile, tlsProvider, warmUpConnections, selectors);
    }

    /** The h3 listener's UDP port: 0 = ephemeral, {@link Http3Listener#ON_H2_PORT} = the number the h2 listener got. */
    public ServerSettings withH3Port(int port) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, countRequests, maxConnections, maxConnectionsPerClient, port, quic, tlsProfile, tlsProvider, warmUpConnections, selectors);
    }

    public ServerSettings withBind(String address) {
        return new ServerSettings(address, ports, keystore, keystorePassword, network, countRequests, maxConnections, maxConnectionsPerClient, h3Port, quic, tlsProfile, tlsProvider, warmUpConnections, selectors);
    }

    public ServerSettings withKeystore(Path path, String password) {
        return new ServerSettings(bind, ports, path, password, network, countRequests, maxConnections, maxConnectionsPerClient, h3Port, quic, tlsProfile, tlsProvider, warmUpConnections, selectors);
    }

    public ServerSettings withNetwork(LinkProfile link) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, link, countRequests, maxConnections, maxConnectionsPerClient, h3Port, quic, tlsProfile, tlsProvider, warmUpConnections, selectors);
    }

    /** At most {@code perListener} open connections per listener, {@code perClient} of them from one address. */
    public ServerSettings withConnectionCaps(int perListener, int perClient) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, countRequests, perListener, perClient, h3Port, quic, tlsProfile, tlsProvider, warmUpConnections, selectors);
    }

    public ServerSettings withCountRequests(boolean count) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, count, maxConnections, maxConnectionsPerClient, h3Port, quic, tlsProfile, tlsProvider, warmUpConnections, selectors);
    }

    /** The certificate a generated key store gets and the cipher order ({@code --tls-profile}). */
    public ServerSettings withTlsProfile(TlsProfile profile) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, countRequests, maxConnections, maxConnectionsPerClient, h3Port, quic, profile, tlsProvider, warmUpConnections, selectors);
    }

    /** What runs the TCP TLS listeners' handshakes and records ({@code --tls-provider}). */
    public ServerSettings withTlsProvider(TlsProvider provider) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, countRequests, maxConnections, maxConnectionsPerClient, h3Port, quic, tlsProfile, provider, warmUpConnections, selectors);
    }

    /** Connections per TCP listener the server makes to itself before it is ready ({@link WarmUp}); 0 = none. */
    public ServerSettings withWarmUp(int connections) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, countRequests, maxConnections, maxConnectionsPerClient, h3Port, quic, tlsProfile, tlsProvider, connections, selectors);
    }

    /** Selector threads per TCP listener ({@code --selectors}); {@link #JETTY_SELECTORS}: Jetty's count for the machine. */
    public ServerSettings withSelectors(int count) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, countRequests, maxConnections, maxConnectionsPerClient, h3Port, quic, tlsProfile, tlsProvider, warmUpConnections, count);
    }

    /** The h3 listener's congestion control, initial window, Retry and qlog. */
    public ServerSettings withQuic(QuicOptions options) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, countRequests, maxConnections, maxConnectionsPerClient, h3Port, options, tlsProfile, tlsProvider, warmUpConnections, selectors);
    }
}
