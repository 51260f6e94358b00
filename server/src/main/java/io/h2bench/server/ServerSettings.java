package io.h2bench.server;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import io.h2bench.server.netem.LinkProfile;

/**
 * What the server needs to start: the address to bind, one port per listener (0 = ephemeral) and
 * the TLS key store ({@code null} = a generated self-signed certificate, see {@link TlsMaterial})
 * the emulated network in front of every listener, and whether requests are counted per path and
 * query ({@link H2BenchServer#requestsReceived}): on for tests, off for the server a user runs, whose
 * count of distinct URLs a long load run with varied queries would grow without bound.
 */
public record ServerSettings(String bind, Map<Listener, Integer> ports, Path keystore, String keystorePassword,
                             LinkProfile network, boolean countRequests) {

    public ServerSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(network, "network");
        ports = Map.copyOf(ports);
        for (Listener listener : Listener.values()) {
            int port = ports.getOrDefault(listener, -1);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port of " + listener.id() + " must be 0..65535, was " + port);
            }
        }
    }

    /** Loopback, the seed's ports 8000 to 8003, the generated certificate under the user's home. */
    public static ServerSettings defaults() {
        Map<Listener, Integer> ports = new EnumMap<>(Listener.class);
        for (Listener listener : Listener.values()) {
            ports.put(listener, listener.defaultPort());
        }
        return new ServerSettings("127.0.0.1", ports, null, null, LinkProfile.ideal(), false);
    }

    /** Loopback, every port chosen by the system, requests counted: for tests. */
    public static ServerSettings ephemeral() {
        Map<Listener, Integer> ports = new EnumMap<>(Listener.class);
        for (Listener listener : Listener.values()) {
            ports.put(listener, 0);
        }
        return new ServerSettings("127.0.0.1", ports, null, null, LinkProfile.ideal(), true);
    }

    public int port(Listener listener) {
        return ports.get(listener);
    }

    public ServerSettings withPort(Listener listener, int port) {
        Map<Listener, Integer> changed = new EnumMap<>(ports);
        changed.put(listener, port);
        return new ServerSettings(bind, changed, keystore, keystorePassword, network, countRequests);
    }

    public ServerSettings withBind(String address) {
        return new ServerSettings(address, ports, keystore, keystorePassword, network, countRequests);
    }

    public ServerSettings withKeystore(Path path, String password) {
        return new ServerSettings(bind, ports, path, password, network, countRequests);
    }

    public ServerSettings withNetwork(LinkProfile link) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, link, countRequests);
    }

    public ServerSettings withCountRequests(boolean count) {
        return new ServerSettings(bind, ports, keystore, keystorePassword, network, count);
    }
}
