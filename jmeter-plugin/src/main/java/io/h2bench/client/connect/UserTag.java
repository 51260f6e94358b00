package io.h2bench.client.connect;

import io.h2bench.client.profile.ConnectionProfile;
import java.util.Objects;

/**
 * The Jetty request tag that gives each virtual user its own connection pools inside the one
 * shared {@code HttpClient}: requests with different tags never share a connection. The tag also
 * carries the pool size, because Jetty creates a destination's pool from its origin alone.
 * <p>
 * Jetty hashes the tag inside its origin on every request to find the destination, so the hash is
 * computed once and a user reuses its tag while nothing in it changes ({@code UserConnections}).
 */
public final class UserTag {

    private final long user;
    private final int maxConnections;
    private final ConnectionProfile profile;
    private final int hash;

    /**
     * @param user           unique per virtual user and per connection reset
     * @param maxConnections connections this user may open to one origin
     * @param profile        how the connections are made (proxy, source address, DNS, bandwidth, certificate)
     */
    public UserTag(long user, int maxConnections, ConnectionProfile profile) {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1, was " + maxConnections);
        }
        this.user = user;
        this.maxConnections = maxConnections;
        this.profile = profile == null ? ConnectionProfile.DIRECT : profile;
        this.hash = Objects.hash(user, maxConnections, this.profile);
    }

    public long user() {
        return user;
    }

    int maxConnections() {
        return maxConnections;
    }

    ConnectionProfile profile() {
        return profile;
    }

    /** Whether a request with these settings may use this tag (and so the same connections). */
    public boolean fits(long otherUser, int otherMaxConnections, ConnectionProfile otherProfile) {
        return user == otherUser && maxConnections == otherMaxConnections && profile.equals(otherProfile);
    }

    /** Pool size for a destination whose origin carries {@code tag} (untagged: Jetty's HTTP/1.1 habit). */
    static int maxConnectionsOf(Object tag) {
        return tag instanceof UserTag userTag ? userTag.maxConnections() : 6;
    }

    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof UserTag that && hash == that.hash && fits(that.user, that.maxConnections, that.profile);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "UserTag[user=" + user + ", maxConnections=" + maxConnections + ", profile=" + profile + "]";
    }
}
