package io.h2bench.client.connect;

import io.h2bench.client.profile.BrowserPreset;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http2.client.HTTP2Client;

/**
 * The SETTINGS a new HTTP/2 connection of a user announces, in one place for the two ways they
 * reach the server: the SETTINGS frame after the connection preface, and the {@code HTTP2-Settings}
 * header of an h2c Upgrade request (RFC 7540 section 3.2.1), which the server applies to the
 * upgraded stream 1 before that frame arrives.
 */
public final class AnnouncedSettings {

    private static final int DEFAULT_HEADER_TABLE_SIZE = 4096;
    private static final int DEFAULT_MAX_FRAME_SIZE = 16_384;

    private AnnouncedSettings() {
    }

    /** A browser preset's SETTINGS in its order, or, with none ({@link BrowserPreset#JETTY}), Jetty's. */
    public static Map<Integer, Integer> of(BrowserPreset.Http2 preset, HTTP2Client client) {
        return preset != null ? preset.settings() : jetty(client);
    }

    /**
     * What Jetty 12.1's {@code HTTP2ClientConnectionFactory} derives from {@code client}'s
     * configuration: the decoder table, frame size and stream window only where they differ from
     * RFC 9113's defaults, always the pushed streams' limit, and the response header limit when set.
     * The connection announces exactly this map ({@link EarlyRequestHttp2} returns it as the preface's).
     */
    static Map<Integer, Integer> jetty(HTTP2Client client) {
        Map<Integer, Integer> settings = new LinkedHashMap<>();
        if (client.getMaxDecoderTableCapacity() != DEFAULT_HEADER_TABLE_SIZE) {
            settings.put(BrowserPreset.Http2.HEADER_TABLE_SIZE, client.getMaxDecoderTableCapacity());
        }
        settings.put(BrowserPreset.Http2.MAX_CONCURRENT_STREAMS, client.getMaxConcurrentPushedStreams());
        if (client.getInitialStreamRecvWindow() != BrowserPreset.Http2.DEFAULT_WINDOW) {
            settings.put(BrowserPreset.Http2.INITIAL_WINDOW_SIZE, client.getInitialStreamRecvWindow());
        }
        if (client.getMaxFrameSize() != DEFAULT_MAX_FRAME_SIZE) {
            settings.put(BrowserPreset.Http2.MAX_FRAME_SIZE, client.getMaxFrameSize());
        }
        if (client.getMaxResponseHeadersSize() > 0) {
            settings.put(BrowserPreset.Http2.MAX_HEADER_LIST_SIZE, client.getMaxResponseHeadersSize());
        }
        return settings;
    }

    /**
     * The {@code HTTP2-Settings} value: the SETTINGS frame's payload (a 16-bit id and a 32-bit value
     * per setting) in base64url without padding. Jetty's and the presets' SETTINGS hold several, so
     * it is never empty, which RFC 7540's token68 grammar does not allow.
     */
    public static String upgradeHeader(Map<Integer, Integer> settings) {
        ByteBuffer payload = ByteBuffer.allocate(6 * settings.size());
        settings.forEach((id, value) -> payload.putShort(id.shortValue()).putInt(value));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.array());
    }
}
