package io.h2bench.server;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.h2bench.server.netem.kernel.KernelLink;

/** The IP addresses clients reach the listeners at, which the generated certificate must name. */
final class ServingAddresses {

    private ServingAddresses() {
    }

    /** The kernel link's server address; else the bound address, or every local one for a wildcard; none for a host name. */
    static List<String> of(String bind, KernelLink link) throws SocketException {
        if (link != null) {
            return List.of(link.serverAddress());
        }
        if (bind.equals("0.0.0.0") || bind.equals("::")) {
            return localAddresses();
        }
        boolean literal = bind.contains(":") || bind.chars().allMatch(c -> c == '.' || Character.isDigit(c));
        return literal ? List.of(bind) : List.of();
    }

    private static List<String> localAddresses() throws SocketException {
        List<String> addresses = new ArrayList<>();
        for (NetworkInterface device : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!device.isUp()) {
                continue;
            }
            for (InetAddress address : Collections.list(device.getInetAddresses())) {
                // A link-local IPv6 address needs its zone, which a certificate cannot carry.
                if (!(address instanceof Inet6Address v6 && v6.isLinkLocalAddress())) {
                    addresses.add(address.getHostAddress().replaceFirst("%.*$", "")); // the zone of an interface's address
                }
            }
        }
        return addresses;
    }
}
