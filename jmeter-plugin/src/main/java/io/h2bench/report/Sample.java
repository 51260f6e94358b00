package io.h2bench.report;

/**
 * One row of a JMeter CSV results file (JTL), with the columns the comparison and the
 * end-to-end tests read. Columns absent from the file are -1 (numbers) or "" (text).
 *
 * @param timeStamp  epoch milliseconds when the sample started (JMeter's default)
 * @param elapsed    milliseconds until the last byte of the response
 * @param latency    milliseconds until the first byte of the response
 * @param connect    milliseconds spent opening a connection for this sample (0 when reused)
 * @param responseMessage the status line's text, with h2bench's {@link ProtocolNote} when another protocol was used
 */
public record Sample(
        long timeStamp,
        long elapsed,
        String label,
        String responseCode,
        String responseMessage,
        String threadName,
        boolean success,
        String failureMessage,
        long bytes,
        long sentBytes,
        long latency,
        long connect) {
}
