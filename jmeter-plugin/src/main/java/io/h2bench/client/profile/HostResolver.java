package io.h2bench.client.profile;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Resolves host names for a user's new connections (JMeter's DNS Cache Manager has this shape). */
@FunctionalInterface
public interface HostResolver {

    InetAddress[] resolve(String host) throws UnknownHostException;
}
