package io.h2bench.client.connect;

import io.h2bench.client.profile.BrowserPreset;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Map;

/**
 * The SETTINGS a new HTTP/2 connection of a user announces, in one place for the two ways they
 * reach the server: the SETTINGS frame after the connection preface (the sampler's own HTTP/2), and the {@code HTTP2-Settings} header of an h2c Upgrade request
 * (RFC 7540 section 3.2.1), which the server applies to the upgraded stream 1 before that frame
 * arrives. Both are the user's {@link BrowserPreset}'s, Jetty's own included ({@link BrowserPreset#JETTY}).
 */
public final class AnnouncedSettings {

    private AnnouncedSettings() {
    }

    /**
     * The {@code HTTP2-Settings} value: the SETTINGS frame's payload (a 16-bit id and a 32-bit value
     * per setting) in base64url without padding. Every preset's SETTINGS hold several, so
     * it is never empty, which RFC 7540's token68 grammar does not allow.
     */
    public static String upgradeHeader(BrowserPreset.Http2 preset) {
        Map<Integer, Integer> settings = preset.settings();
        ByteBuffer payload = ByteBuffer.allocate(6 * settings.size());
        settings.forEach((id, value) -> payload.putShort(id.shortValue()).putInt(value));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.array());
    }
}
