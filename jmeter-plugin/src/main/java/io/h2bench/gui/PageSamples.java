package io.h2bench.gui;

import io.h2bench.report.PageSample;
import io.h2bench.sampler.TlsColumns;
import java.util.Arrays;
import org.apache.jmeter.samplers.SampleResult;

/** JMeter's SampleResult as the plain {@link PageSample} the waterfall rows are built from. */
public final class PageSamples {

    private PageSamples() {
    }

    public static PageSample of(SampleResult sample) {
        return new PageSample(sample.getSampleLabel(), sample.getStartTime(), sample.getTime(), sample.getLatency(),
                sample.getConnectTime(), TlsColumns.of(sample), sample.getSentBytes(), sample.isSuccessful(), sample.getResponseCode(),
                sample.getSamplerData(), sample.getResponseHeaders(),
                Arrays.stream(sample.getSubResults()).map(PageSamples::of).toList());
    }
}
