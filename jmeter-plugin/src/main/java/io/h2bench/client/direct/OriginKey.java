package io.h2bench.client.direct;

import io.h2bench.client.profile.ConnectionProfile;

/**
 * Where a user's connections to one origin with one profile are pooled. Looked up for every
 * request, so hashed by the origin alone (its string keeps its hash) and compared with the
 * profile by identity first: the records' own methods went through a method handle per field
 * of both records, 1 to 2 % of the sampler's CPU in JFR at 50 users (issue 20).
 */
public record OriginKey(String origin, ConnectionProfile profile) {

    @Override
    public int hashCode() {
        return origin.hashCode();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OriginKey key && origin.equals(key.origin) && (profile == key.profile || profile.equals(key.profile));
    }
}
