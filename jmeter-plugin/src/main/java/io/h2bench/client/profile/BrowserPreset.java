package io.h2bench.client.profile;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whose protocol settings the client announces when it opens a connection: a browser's HTTP/2
 * SETTINGS and windows and its QUIC transport parameters, or those of Jetty's client as it comes. Part of the
 * {@link ConnectionProfile}, so users with different presets never share a connection. The names
 * are the values of the sampler property {@code H2Bench.browserPreset}.
 * <p>
 * The figures come from the browsers' sources, each cited where it is set; the sampler page
 * ({@code src/site/markdown/sampler.md}) lists them.
 */
public enum BrowserPreset {

    /**
     * Chrome. HTTP/2 (net/http/http_network_session.h and .cc): HEADER_TABLE_SIZE
     * kSpdyMaxHeaderTableSize 64 KiB, MAX_CONCURRENT_STREAMS kSpdyMaxConcurrentPushedStreams 1000,
     * INITIAL_WINDOW_SIZE kSpdyStreamMaxRecvWindowSize 6 MiB, MAX_HEADER_LIST_SIZE
     * kSpdyMaxHeaderListSize 256 KiB, connection window kSpdySessionMaxRecvWindowSize 15 MiB. These
     * are the SETTINGS of Chrome while it accepted server push (up to version 105); since, Chrome sends
     * ENABLE_PUSH 0 in place of MAX_CONCURRENT_STREAMS. h2bench measures push, so its Chrome keeps it.
     * HTTP/3 (net/quic/quic_context.cc and .h, quiche's quic_config.cc and quic_session.cc): initial
     * max data kQuicSessionMaxRecvWindowSize 15 MiB, every stream's kQuicStreamMaxRecvWindowSize 6 MiB,
     * 100 bidirectional streams (kDefaultMaxStreamsPerConnection), 103 unidirectional (those 100 plus
     * HTTP/3's 3 static streams), idle timeout kIdleConnectionTimeout 30 s.
     */
    CHROME("Chrome",
            new Http2(settings(Http2.HEADER_TABLE_SIZE, 64 * 1024, Http2.MAX_CONCURRENT_STREAMS, 1000,
                    Http2.INITIAL_WINDOW_SIZE, 6 * 1024 * 1024, Http2.MAX_HEADER_LIST_SIZE, 256 * 1024),
                    15 * 1024 * 1024, 6 * 1024 * 1024),
            new Http3(15L * 1024 * 1024, 6L * 1024 * 1024, 6L * 1024 * 1024, 6L * 1024 * 1024, 100, 103, 30_000)),

    /**
     * Firefox. HTTP/2 (netwerk/protocol/http/Http2Session.cpp SendHello, prefs in
     * modules/libpref/init/StaticPrefList.yaml): HEADER_TABLE_SIZE network.http.http2.default-hpack-buffer
     * 64 KiB, ENABLE_PUSH 0, INITIAL_WINDOW_SIZE network.http.http2.push-allowance 128 KiB,
     * MAX_FRAME_SIZE kMaxFrameData 16 KiB; connection window network.http.http2.pull-allowance 12 MiB;
     * each request stream's window raised to those 12 MiB by a WINDOW_UPDATE right after its HEADERS
     * (Http2StreamBase::AdjustInitialWindow). HTTP/3 (netwerk/socket/neqo_glue/src/lib.rs with
     * network.http.http3.max_data 24 MiB, max_stream_data 12 MiB for the streams it opens and
     * idle_timeout 30 s; the rest neqo's defaults, neqo-transport/src/connection/params.rs: 1 MiB per
     * stream the server opens, 100 streams of each kind).
     */
    FIREFOX("Firefox",
            new Http2(settings(Http2.HEADER_TABLE_SIZE, 64 * 1024, Http2.ENABLE_PUSH, 0,
                    Http2.INITIAL_WINDOW_SIZE, 128 * 1024, Http2.MAX_FRAME_SIZE, 16 * 1024),
                    12 * 1024 * 1024, 12 * 1024 * 1024),
            new Http3(24L * 1024 * 1024, 12L * 1024 * 1024, 1024 * 1024, 1024 * 1024, 100, 100, 30_000)),

    /**
     * Jetty's HTTP/2 client as it comes: what Jetty 12.1.14's {@code HTTP2ClientConnectionFactory}
     * announces from the defaults of an {@code HttpClient} on {@code HTTP2Client}, written out so
     * that the sampler's own HTTP/2 carries it as it carries the browsers'. SETTINGS (only those that
     * differ from RFC 9113's defaults, plus the pushed streams' limit, in the order of Jetty's
     * {@code HashMap}): MAX_CONCURRENT_STREAMS maxConcurrentPushedStreams 32, INITIAL_WINDOW_SIZE
     * initialStreamRecvWindow 8 MiB. HEADER_TABLE_SIZE 4,096 and MAX_FRAME_SIZE 16,384 are the RFC's,
     * so not sent; nor MAX_HEADER_LIST_SIZE, as {@code HttpClient} hands {@code HTTP2Client} its own
     * response header limit, none (-1), in place of {@code HTTP2Client}'s 8 KiB. Connection window:
     * initialSessionRecvWindow 16 MiB. BrowserPresetHttp2Test checks them against an unconfigured
     * Jetty client's frames.
     * No HTTP/3: Netty's QUIC codec left to its defaults announces quiche's, zero bytes of flow
     * control for the connection and the requests (a response's HEADERS arrive, its body never);
     * HTTP/3 requests with this preset are refused.
     */
    JETTY("Jetty",
            new Http2(settings(Http2.MAX_CONCURRENT_STREAMS, 32, Http2.INITIAL_WINDOW_SIZE, 8 * 1024 * 1024),
                    16 * 1024 * 1024, 8 * 1024 * 1024),
            null);

    private final String displayName;
    private final Http2 http2;
    private final Http3 http3;

    BrowserPreset(String displayName, Http2 http2, Http3 http3) {
        this.displayName = displayName;
        this.http2 = http2;
        this.http3 = http3;
    }

    /** What the GUI shows. */
    public String displayName() {
        return displayName;
    }

    /** The HTTP/2 settings and windows to announce (every preset has them). */
    public Http2 http2() {
        return http2;
    }

    /** The QUIC transport parameters to announce; null: none of this preset's (HTTP/3 is refused). */
    public Http3 http3() {
        return http3;
    }

    /**
     * Reads a property value, by name or display name in any case; blank means {@link #CHROME}. Anything
     * else is refused, so a typo in a plan fails its samples with a clear message.
     */
    public static BrowserPreset parse(String value) {
        if (value == null || value.isBlank()) {
            return CHROME;
        }
        String wanted = value.trim();
        for (BrowserPreset preset : values()) {
            if (preset.name().equalsIgnoreCase(wanted) || preset.displayName.equalsIgnoreCase(wanted)) {
                return preset;
            }
        }
        throw new IllegalArgumentException("Browser preset must be one of CHROME, FIREFOX, JETTY; was '" + value + "'");
    }

    /**
     * A browser's HTTP/2 connection start: the SETTINGS it sends, in its order, the connection
     * window it opens with a WINDOW_UPDATE after them, and the window each request stream gets
     * (the SETTINGS' INITIAL_WINDOW_SIZE, or more when the browser raises it per stream).
     */
    public record Http2(Map<Integer, Integer> settings, int connectionWindow, int requestStreamWindow) {

        public static final int HEADER_TABLE_SIZE = 0x1;
        public static final int ENABLE_PUSH = 0x2;
        public static final int MAX_CONCURRENT_STREAMS = 0x3;
        public static final int INITIAL_WINDOW_SIZE = 0x4;
        public static final int MAX_FRAME_SIZE = 0x5;
        public static final int MAX_HEADER_LIST_SIZE = 0x6;
        /** RFC 9113's initial window of a stream and of the connection. */
        public static final int DEFAULT_WINDOW = 65_535;

        /** The stream window the SETTINGS announce (RFC 9113's 65,535 when they do not). */
        public int initialStreamWindow() {
            return settings.getOrDefault(INITIAL_WINDOW_SIZE, DEFAULT_WINDOW);
        }

        /** Whether a server's push is taken with {@code open} pushed streams open: push enabled, and room under the stream limit. */
        public boolean acceptsPush(int open) {
            return settings.getOrDefault(ENABLE_PUSH, 1) != 0 && open < settings.getOrDefault(MAX_CONCURRENT_STREAMS, Integer.MAX_VALUE);
        }

        /**
         * These SETTINGS as an h2c Upgrade request's {@code HTTP2-Settings} (RFC 7540 section 3.2.1),
         * which the server applies to the upgraded stream 1 before the SETTINGS frame after the
         * preface arrives: the frame's payload (a 16-bit id and a 32-bit value per setting) in
         * base64url without padding. Every preset's SETTINGS hold several, so it is never empty,
         * which RFC 7540's token68 grammar does not allow.
         */
        public String upgradeHeader() {
            ByteBuffer payload = ByteBuffer.allocate(6 * settings.size());
            settings.forEach((id, value) -> payload.putShort(id.shortValue()).putInt(value));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.array());
        }
    }

    /** A browser's QUIC transport parameters (RFC 9000 section 18.2), as HTTP/3 uses them. */
    public record Http3(long maxData, long maxStreamDataBidiLocal, long maxStreamDataBidiRemote, long maxStreamDataUni,
                        long maxStreamsBidi, long maxStreamsUni, long idleTimeoutMillis) {
    }

    private static Map<Integer, Integer> settings(int... idsAndValues) {
        Map<Integer, Integer> settings = new LinkedHashMap<>();
        for (int i = 0; i < idsAndValues.length; i += 2) {
            settings.put(idsAndValues[i], idsAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(settings);
    }
}
