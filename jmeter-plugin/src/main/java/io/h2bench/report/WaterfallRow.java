package io.h2bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One bar of the waterfall, as DevTools' Network panel splits it: blocked (waiting for a connection
 * or a stream), connect (TCP + TLS of a connection opened for it, the TLS handshake its last part,
 * as DevTools' "SSL" inside "Initial connection"), waiting (until the response began) and receiving
 * (until the last byte). Read from a page sample's parts: JMeter's times plus the lines the h2bench
 * sampler writes in the sampler data (or, from a JTL, its TLS variables). The listener's panel and
 * the SVG report both draw these rows.
 *
 * @param offsetMillis start relative to the page's start
 * @param tlsMillis    the TLS handshake's part of connectMillis, at its end
 * @param connectionId the sampler's connection number, {@link #UNKNOWN_CONNECTION} when the source lacks it
 */
public record WaterfallRow(String label, long offsetMillis, long blockedMillis, long connectMillis, long tlsMillis,
                           long waitingMillis, long receivingMillis, long connectionId, String protocol,
                           boolean pushed, boolean successful) {

    public static final long UNKNOWN_CONNECTION = 0;
    private static final Pattern CONNECTION = Pattern.compile("(?:Connection: #|on connection #)(\\d+)");
    private static final Pattern PROTOCOL = Pattern.compile("Protocol: (\\S+)");
    private static final Pattern QUEUED = Pattern.compile("Queued: (\\d+) ms");
    private static final Pattern STATUS_LINE = Pattern.compile("^(HTTP/\\S+) \\d{3}");
    private static final Pattern STATUS_CODE = Pattern.compile("\\d{3}");

    public long endMillis() {
        return offsetMillis + blockedMillis + connectMillis + waitingMillis + receivingMillis;
    }

    /** Where {@code phase} begins, from the row's start: one after the other, the TLS handshake at the end of connect. */
    public long startOf(WaterfallPhase phase) {
        long at = 0;
        for (WaterfallPhase before : WaterfallPhase.values()) {
            if (before == phase) {
                return phase.inside() == null ? at : at - phase.millis(this);
            }
            at += before.inside() == null ? before.millis(this) : 0;
        }
        return at;
    }

    /** Rows of a page sample: its parts (the page itself first) or, without any, the sample alone. */
    public static List<WaterfallRow> of(PageSample page) {
        List<PageSample> parts = page.parts().isEmpty() ? List.of(page) : page.parts();
        // The parts' own starts: a JTL's parent time stamp is copied from its first part, not recomputed.
        long pageStart = parts.stream().mapToLong(PageSample::startMillis).min().orElse(page.startMillis());
        List<WaterfallRow> rows = new ArrayList<>();
        for (PageSample part : parts) {
            rows.add(row(part, pageStart));
        }
        return rows;
    }

    static WaterfallRow row(PageSample part, long pageStart) {
        String data = part.samplerData();
        boolean pushed = data.contains("Pushed by the server") || pushedWithoutSamplerData(part);
        long connect = part.connectMillis();
        long latency = Math.min(part.latencyMillis(), part.elapsedMillis());
        // Queue time covers the opening of a new HTTP/2 connection: the bar shows that part as connect.
        long blocked = Math.max(0, number(QUEUED, data, 0) - connect);
        long waiting = Math.max(0, latency - blocked - connect);
        long receiving = Math.max(0, part.elapsedMillis() - latency);
        String protocol = pushed ? "HTTP/2.0" : text(PROTOCOL, data, text(STATUS_LINE, part.responseHeaders(), "?"));
        long tls = Math.min(part.tlsMillis(), connect);
        return new WaterfallRow(part.label(), part.startMillis() - pageStart, blocked, connect, tls, waiting, receiving,
                number(CONNECTION, data, UNKNOWN_CONNECTION), protocol, pushed, part.successful());
    }

    /**
     * JMeter's XML JTL never saves an HTTP sample's sampler data. There a push is the response that
     * arrived although this user sent no byte for it: every request writes at least its headers.
     */
    private static boolean pushedWithoutSamplerData(PageSample part) {
        return part.samplerData().isEmpty() && part.sentBytes() == 0
                && STATUS_CODE.matcher(part.responseCode()).matches();
    }

    private static long number(Pattern pattern, String data, long fallback) {
        Matcher matcher = pattern.matcher(data);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : fallback;
    }

    private static String text(Pattern pattern, String data, String fallback) {
        Matcher matcher = pattern.matcher(data);
        return matcher.find() ? matcher.group(1) : fallback;
    }
}
