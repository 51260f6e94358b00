package io.h2bench.report;

import java.util.function.ToLongFunction;

/**
 * The parts of a waterfall bar, in order, with the colour both renderers (Swing, SVG) give them: four
 * one after the other, and the TLS handshake drawn inside connect, over its end (DevTools' "SSL").
 */
public enum WaterfallPhase {
    BLOCKED("queued", 0xB0B0B0, WaterfallRow::blockedMillis, null),
    CONNECT("connect", 0xF2A03D, WaterfallRow::connectMillis, null),
    TLS("TLS", 0xA54FD0, WaterfallRow::tlsMillis, CONNECT),
    WAITING("waiting", 0x3DAA5C, WaterfallRow::waitingMillis, null),
    RECEIVING("receiving", 0x3D7DD8, WaterfallRow::receivingMillis, null);

    /** The push promise marker. */
    public static final int PUSH_RGB = 0xFF00FF;

    private final String title;
    private final int rgb;
    private final ToLongFunction<WaterfallRow> length;
    private final WaterfallPhase inside;

    WaterfallPhase(String title, int rgb, ToLongFunction<WaterfallRow> length, WaterfallPhase inside) {
        this.title = title;
        this.rgb = rgb;
        this.length = length;
        this.inside = inside;
    }

    /** The phase this one is part of (drawn over its end), or null for one that follows the one before. */
    public WaterfallPhase inside() {
        return inside;
    }

    public String title() {
        return title;
    }

    public int rgb() {
        return rgb;
    }

    public long millis(WaterfallRow row) {
        return length.applyAsLong(row);
    }
}
