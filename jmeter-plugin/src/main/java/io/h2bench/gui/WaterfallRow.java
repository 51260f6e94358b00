package io.h2bench.gui;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.jmeter.samplers.SampleResult;

/**
 * One bar of the waterfall, as DevTools' Network panel splits it: blocked (waiting for a connection
 * or a stream), connect (TCP + TLS of a connection opened for it), waiting (until the response
 * began) and receiving (until the last byte). Read from the sub-results the h2bench sampler writes:
 * JMeter's times plus the lines it puts in the sampler data.
 *
 * @param offsetMillis start relative to the page's start
 */
public record WaterfallRow(String label, long offsetMillis, long blockedMillis, long connectMillis,
                           long waitingMillis, long receivingMillis, long connectionId, String protocol,
                           boolean pushed, boolean successful) {

    private static final Pattern CONNECTION = Pattern.compile("(?:Connection: #|on connection #)(\\d+)");
    private static final Pattern PROTOCOL = Pattern.compile("Protocol: (\\S+)");
    private static final Pattern QUEUED = Pattern.compile("Queued: (\\d+) ms");

    public long endMillis() {
        return offsetMillis + blockedMillis + connectMillis + waitingMillis + receivingMillis;
    }

    /** Rows of a page sample: its sub-results (the page itself first) or, without any, the sample alone. */
    public static List<WaterfallRow> of(SampleResult page) {
        List<WaterfallRow> rows = new ArrayList<>();
        SampleResult[] parts = page.getSubResults();
        if (parts.length == 0) {
            rows.add(row(page, page.getStartTime()));
        }
        for (SampleResult part : parts) {
            rows.add(row(part, page.getStartTime()));
        }
        return rows;
    }

    static WaterfallRow row(SampleResult part, long pageStart) {
        String data = part.getSamplerData() == null ? "" : part.getSamplerData();
        boolean pushed = data.contains("Pushed by the server");
        long connect = part.getConnectTime();
        long latency = Math.min(part.getLatency(), part.getTime());
        // Queue time covers the opening of a new HTTP/2 connection: the bar shows that part as connect.
        long blocked = Math.max(0, number(QUEUED, data, 0) - connect);
        long waiting = Math.max(0, latency - blocked - connect);
        long receiving = Math.max(0, part.getTime() - latency);
        String protocol = pushed ? "HTTP/2.0" : text(PROTOCOL, data, "?");
        return new WaterfallRow(part.getSampleLabel(), part.getStartTime() - pageStart, blocked, connect, waiting,
                receiving, number(CONNECTION, data, 0), protocol, pushed, part.isSuccessful());
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
