package io.h2bench.client;

/**
 * The Jetty request tag that gives each virtual user its own connection pools inside the one
 * shared {@code HttpClient}: requests with different tags never share a connection. The tag also
 * carries the pool size, because Jetty creates a destination's pool from its origin alone.
 *
 * @param user           unique per virtual user and per connection reset
 * @param maxConnections connections this user may open to one origin
 * @param profile        how the connections are made (proxy, source address, DNS, bandwidth, certificate)
 */
record UserTag(long user, int maxConnections, ConnectionProfile profile) {

    UserTag {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1, was " + maxConnections);
        }
        profile = profile == null ? ConnectionProfile.DIRECT : profile;
    }

    /** Pool size for a destination whose origin carries {@code tag} (untagged: Jetty's HTTP/1.1 habit). */
    static int maxConnectionsOf(Object tag) {
        return tag instanceof UserTag userTag ? userTag.maxConnections() : 6;
    }
}
