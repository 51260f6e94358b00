package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeResult;
import java.net.URI;
import java.util.List;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.Test;

/**
 * JMeter's durations from the client's nanosecond ones: differences of truncated millisecond
 * readings, as JMeter's own sampler takes them, so that sub-millisecond loopback samples average
 * to their real time instead of a whole millisecond more.
 */
class ResultMapperTimesTest {

    private static final long MS = 1_000_000;

    @Test
    void shouldAverageToTheRealDurationWhenSamplesAreShorterThanOneMillisecond() {
        long samples = 10_000;
        long sumElapsed = 0;
        long sumLatency = 0;
        for (long i = 0; i < samples; i++) {
            // start phases spread evenly over a millisecond, as an arbitrary clock gives them
            HTTPSampleResult result = mapped(123 * MS + i * MS / samples + i * 7 * MS, 0, 150_000, 300_000, false);
            sumElapsed += result.getTime();
            sumLatency += result.getLatency();
        }
        assertThat(sumElapsed / (double) samples).isCloseTo(0.30, org.assertj.core.data.Offset.offset(0.01));
        assertThat(sumLatency / (double) samples).isCloseTo(0.15, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void shouldKeepConnectAtLeastOneMillisecondWhenTheConnectionIsNew() {
        HTTPSampleResult result = mapped(5 * MS + 100, 200_000, 400_000, 600_000, true);

        assertThat(result.getConnectTime()).isEqualTo(1);
        assertThat(result.getLatency()).isGreaterThanOrEqualTo(result.getConnectTime());
        assertThat(result.getTime()).isGreaterThanOrEqualTo(result.getLatency());
    }

    @Test
    void shouldShowNoConnectWhenTheConnectionIsReused() {
        HTTPSampleResult result = mapped(5 * MS + 999_000, 0, 400_000, 600_000, false);

        assertThat(result.getConnectTime()).isZero();
        assertThat(result.getLatency()).isEqualTo(1);
        assertThat(result.getTime()).isEqualTo(1);
    }

    @Test
    void shouldKeepConnectBelowLatencyBelowElapsedWhenPhasesVary() {
        for (long phase = 0; phase < MS; phase += 50_000) {
            HTTPSampleResult result = mapped(9 * MS + phase, 1_300_000, 1_900_000, 2_600_000, true);
            assertThat(result.getConnectTime()).isBetween(1L, result.getLatency());
            assertThat(result.getLatency()).isLessThanOrEqualTo(result.getTime());
        }
    }

    @Test
    void shouldKeepTheTlsHandshakeWithinConnectWhenPhasesVary() {
        for (long phase = 0; phase < MS; phase += 50_000) {
            // 0.4 ms of TCP connect, then 1.5 ms of handshake
            ExchangeResult exchange = exchange(9 * MS + phase, 1_900_000, 1_500_000, 2_600_000, 3_000_000, true);
            long connect = mapped(exchange).getConnectTime();

            assertThat(ResultMapper.tlsMillis(exchange)).isBetween(1L, connect);
        }
        assertThat(ResultMapper.tlsMillis(exchange(5 * MS, 300_000, 0, 400_000, 600_000, true))).as("clear text").isZero();
        assertThat(ResultMapper.tlsMillis(exchange(5 * MS, 0, 0, 400_000, 600_000, false))).as("reused").isZero();
    }

    private static HTTPSampleResult mapped(long startNanos, long connect, long latency, long elapsed, boolean newConnection) {
        return mapped(exchange(startNanos, connect, 0, latency, elapsed, newConnection));
    }

    private static ExchangeResult exchange(long startNanos, long connect, long tls, long latency, long elapsed,
                                           boolean newConnection) {
        return new ExchangeResult("GET", URI.create("http://127.0.0.1/"), false, 1_000L, startNanos,
                0, connect, tls, latency, elapsed, 200, "OK", "HTTP/1.1", List.of(), new byte[0], 0, 0, 0, 1,
                newConnection, null, null, null, List.of());
    }

    private static HTTPSampleResult mapped(ExchangeResult exchange) {
        HTTPSampleResult result = new HTTPSampleResult();
        ResultMapper.timesAndSizes(exchange, result);
        return result;
    }
}
