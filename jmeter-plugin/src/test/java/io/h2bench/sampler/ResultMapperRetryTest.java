package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeResult;
import java.net.URI;
import java.net.URL;
import java.util.List;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.Test;

/** A request sent twice because the server never processed the first try: one sample, and its message says so. */
class ResultMapperRetryTest {

    private static final long MS = 1_000_000;

    @Test
    void shouldSpanBothTriesAndSaySoWhenTheFirstWasNeverProcessed() throws Exception {
        ExchangeResult first = exchange(10 * MS, 0, 0, 5 * MS, 0, "GOAWAY");
        ExchangeResult second = exchange(16 * MS, 2 * MS, 3 * MS, 4 * MS, 200, null);

        ExchangeResult both = first.retriedAs(second, "sent again on a new connection");
        HTTPSampleResult result = new HTTPSampleResult();
        ResultMapper.timesAndSizes(both, result);
        ResultMapper.response(both, result, new URL("http://127.0.0.1/"));

        assertThat(result.getResponseMessage()).isEqualTo("OK (sent again on a new connection)");
        assertThat(result.getTime()).as("from the first try's start to the second's end").isEqualTo(10);
        assertThat(result.getSentBytes()).as("both tries' bytes").isEqualTo(200);
    }

    private static ExchangeResult exchange(long startNanos, long connect, long latency, long elapsed, int status, String failure) {
        return new ExchangeResult("GET", URI.create("http://127.0.0.1/"), false, startNanos / MS, startNanos, 0, connect,
                0, latency, elapsed, status, status == 0 ? null : "OK", status == 0 ? null : "HTTP/2.0", List.of(), new byte[0],
                0, 100, 100, 1, connect > 0, null, failure, null, List.of());
    }
}
