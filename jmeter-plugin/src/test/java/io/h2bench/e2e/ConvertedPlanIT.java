package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.convert.PlanConverter;
import io.h2bench.report.Sample;
import io.h2bench.server.Listener;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The migration path end to end: a plan with JMeter's HTTP Request (throughput.jmx's HttpClient4
 * thread group), converted by PlanConverter, loads and runs in JMeter 5.6.3 on the h2bench sampler.
 */
class ConvertedPlanIT extends PlanAgainstServer {

    @Test
    void shouldRunWithoutErrorsWhenTheConvertedPlanRunsHeadless() throws Exception {
        Path runDirectory = HeadlessJMeter.runDirectory("converted-throughput");
        Path converted = runDirectory.resolve("throughput-h2bench.jmx");
        int count;
        try (InputStream in = Files.newInputStream(HeadlessJMeter.testPlan("throughput.jmx"));
             OutputStream out = Files.newOutputStream(converted)) {
            count = new PlanConverter(null).convert(in, out);
        }
        Map<String, String> properties = planProperties(1);
        properties.putAll(Map.of("h2bench_users", "0", "jmeter_users", "2", "ramp", "0", "duration", "2",
                "port", String.valueOf(server.port(Listener.H1_TLS))));

        JMeterRun run = jmeter.run(converted, runDirectory, properties, Duration.ofMinutes(4));

        assertThat(count).isEqualTo(1);
        assertThat(Files.readString(converted)).doesNotContain("<HTTPSamplerProxy");
        assertThat(run.exitCode()).as(run.describe()).isZero();
        List<Sample> samples = run.samples();
        assertThat(samples).isNotEmpty().allSatisfy(sample -> assertThat(sample.success())
                .as("%s failed: %s", sample.label(), sample.failureMessage()).isTrue());
        assertThat(samples).anySatisfy(sample -> assertThat(sample.label()).startsWith("jmeter-hc4"));
        assertThat(run.logErrors()).as("ERROR lines in " + run.log()).isEmpty();
    }
}
