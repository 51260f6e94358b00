package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.direct.OriginKey;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.profile.ConnectionProfile;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OriginKeyTest {

    private static final String ORIGIN = "http://127.0.0.1:8080";

    @Test
    void shouldPoolEqualProfilesBuiltApartTogetherAndOtherProfilesApart() {
        // Samples build their profile anew when it is not the shared direct one: equal ones share connections.
        ConnectionProfile limited = new ConnectionProfile(null, null, null, 1000, null);
        ConnectionProfile sameLimit = new ConnectionProfile(null, null, null, 1000, null);
        Map<OriginKey, String> pools = new HashMap<>();
        pools.put(new OriginKey(ORIGIN, limited), "limited");
        pools.put(new OriginKey(ORIGIN, ConnectionProfile.DIRECT), "direct");
        pools.put(new OriginKey(ORIGIN, ConnectionProfile.DIRECT.withPreset(BrowserPreset.FIREFOX)), "firefox");

        assertThat(pools.get(new OriginKey(ORIGIN, sameLimit))).isEqualTo("limited");
        assertThat(pools.get(new OriginKey(ORIGIN, ConnectionProfile.DIRECT))).isEqualTo("direct");
        assertThat(pools.get(new OriginKey(ORIGIN, ConnectionProfile.DIRECT.withPreset(BrowserPreset.FIREFOX))))
                .isEqualTo("firefox");
        assertThat(pools.get(new OriginKey("http://127.0.0.1:8081", ConnectionProfile.DIRECT))).isNull();
        assertThat(pools).hasSize(3);
    }
}
