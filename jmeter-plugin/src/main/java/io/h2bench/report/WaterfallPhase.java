package io.h2bench.report;

import java.util.function.ToLongFunction;

/** The four parts of a waterfall bar, in order, with the colour both renderers (Swing, SVG) give them. */
public enum WaterfallPhase {
    BLOCKED("queued", 0xB0B0B0, WaterfallRow::blockedMillis),
    CONNECT("connect", 0xF2A03D, WaterfallRow::connectMillis),
    WAITING("waiting", 0x3DAA5C, WaterfallRow::waitingMillis),
    RECEIVING("receiving", 0x3D7DD8, WaterfallRow::receivingMillis);

    /** The push promise marker. */
    public static final int PUSH_RGB = 0xFF00FF;

    private final String title;
    private final int rgb;
    private final ToLongFunction<WaterfallRow> length;

    WaterfallPhase(String title, int rgb, ToLongFunction<WaterfallRow> length) {
        this.title = title;
        this.rgb = rgb;
        this.length = length;
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
