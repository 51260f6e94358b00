package io.h2bench.sampler;

import io.h2bench.report.XmlJtlReader;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * Where a sample's TLS handshake time goes, JMeter's JTL columns being fixed: a line of the sampler
 * data (for listeners, the waterfall's among them) and two JMeter variables, which a JTL keeps as
 * columns (CSV) or attributes (XML) when the property {@code sample_variables} names them.
 * JMeter takes a sample's variables once, for the top-level sample, and repeats them on every
 * sub-result it writes: so the sub-results' own times travel in a list, {@value #PARTS}.
 */
public final class TlsColumns {

    /** The sample's TLS handshake in ms, the part of its Connect; 0 in clear text or on a reused connection. */
    public static final String TLS = XmlJtlReader.TLS_VARIABLE;
    /** The same for each sub-result in order (a page load's parts), separated by spaces; empty without any. */
    public static final String PARTS = XmlJtlReader.TLS_PARTS_VARIABLE;
    /** The value of {@code sample_variables} that saves both. */
    public static final String SAMPLE_VARIABLES = TLS + "," + PARTS;

    private static final String LINE = "TLS handshake: ";

    private TlsColumns() {
    }

    /** The sampler data's line, after "Queued:". */
    static String samplerDataLine(long tlsMillis) {
        return LINE + tlsMillis + " ms\n";
    }

    /**
     * The TLS handshake the h2bench sampler wrote into {@code result}'s sampler data; 0 if none did.
     * The handshake is part of Connect, so a sample without one (a reused connection, most samples
     * of a load test) has none, and its sampler data, which JMeter builds anew on each call, is not read.
     */
    public static long of(SampleResult result) {
        if (result.getConnectTime() == 0) {
            return 0;
        }
        String data = result.getSamplerData();
        int at = data == null ? -1 : data.indexOf(LINE);
        while (at > 0 && data.charAt(at - 1) != '\n') {
            at = data.indexOf(LINE, at + 1);
        }
        if (at < 0) {
            return 0;
        }
        int digits = at + LINE.length();
        int end = digits;
        while (end < data.length() && Character.isDigit(data.charAt(end))) {
            end++;
        }
        return end > digits ? Long.parseLong(data, digits, end, 10) : 0;
    }

    /** Sets the variables from the sample JMeter is about to hand to its listeners. */
    static void publish(SampleResult sample, JMeterVariables variables) {
        if (sample == null || variables == null) {
            return;
        }
        StringBuilder parts = new StringBuilder();
        for (SampleResult part : sample.getSubResults()) {
            parts.append(parts.length() == 0 ? "" : " ").append(of(part));
        }
        variables.put(TLS, Long.toString(of(sample)));
        variables.put(PARTS, parts.toString());
    }
}
