package io.h2bench.client.h2;

import io.h2bench.client.profile.BrowserPreset;
import org.eclipse.jetty.http2.parser.Parser;
import org.eclipse.jetty.io.ByteBufferPool;

/**
 * Jetty's HTTP/2 frame parser for a connection that announced a browser preset's SETTINGS, with its
 * own side of them applied as Jetty's session applies the SETTINGS it writes: the HPACK decoder's
 * table and header list limits, and the largest frame it accepts.
 */
final class PresetFrameParser {

    /** Jetty's HTTP2Client: the response header block it accepts, and the SETTINGS entries it reads. */
    private static final int MAX_RESPONSE_HEADERS = 8192;
    private static final int MAX_SETTINGS_KEYS = 64;

    private PresetFrameParser() {
    }

    static Parser create(ByteBufferPool pool, BrowserPreset.Http2 preset, Parser.Listener listener) {
        Parser parser = new Parser(pool, MAX_RESPONSE_HEADERS);
        parser.setMaxSettingsKeys(MAX_SETTINGS_KEYS);
        preset.settings().forEach((key, value) -> {
            switch (key) {
                case BrowserPreset.Http2.HEADER_TABLE_SIZE -> parser.getHpackDecoder().setMaxTableCapacity(value);
                case BrowserPreset.Http2.MAX_FRAME_SIZE -> parser.setMaxFrameSize(value);
                case BrowserPreset.Http2.MAX_HEADER_LIST_SIZE -> parser.getHpackDecoder().setMaxHeaderListSize(value);
                default -> {
                }
            }
        });
        parser.init(listener);
        return parser;
    }
}
