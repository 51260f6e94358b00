package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.report.PageSample;
import io.h2bench.report.WaterfallRow;
import io.h2bench.report.WaterfallSvg;
import io.h2bench.report.XmlJtlReader;
import io.h2bench.sampler.TlsColumns;
import io.h2bench.server.Listener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The TLS handshake in the JTL a real JMeter 5.6.3 writes when {@code sample_variables} names the
 * sampler's variables, as bin/compare runs it: a CSV column beside Connect, and in an XML JTL the
 * attributes the waterfall report draws its TLS segments from.
 */
class TlsColumnsIT extends PlanAgainstServer {

    private static final int ITERATIONS = 3;

    @Test
    void shouldWriteTheTlsColumnWhenSampleVariablesNameIt() throws Exception {
        Map<String, String> properties = planProperties(ITERATIONS);
        properties.put("sample_variables", TlsColumns.SAMPLE_VARIABLES);

        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("protocols-smoke.jmx"),
                HeadlessJMeter.runDirectory("tls-columns"), properties, Duration.ofMinutes(3));

        assertThat(run.exitCode()).as(run.describe()).isZero();
        Map<String, List<Map<String, String>>> byLabel = JtlRows.read(run.jtl()).stream()
                .collect(Collectors.groupingBy(row -> row.get("label")));
        assertThat(byLabel.keySet()).containsExactlyInAnyOrder("h1", "h1-tls", "h2", "h2c");
        byLabel.forEach((label, rows) -> {
            assertThat(rows).hasSize(ITERATIONS);
            // one user, one connection per protocol: only the first sample opened it
            long firstTls = Long.parseLong(rows.get(0).get(TlsColumns.TLS));
            if (label.endsWith("tls") || label.equals("h2")) {
                assertThat(firstTls).as("%s TLS", label).isPositive()
                        .isLessThanOrEqualTo(Long.parseLong(rows.get(0).get("Connect")));
            } else {
                assertThat(firstTls).as("%s TLS", label).isZero();
            }
            assertThat(rows.subList(1, rows.size())).extracting(row -> row.get(TlsColumns.TLS))
                    .as("%s TLS on reuse", label).containsOnly("0");
        });
    }

    @Test
    void shouldDrawTheTlsSegmentWhenTheWaterfallReadsTheXmlJtl() throws Exception {
        Path dir = HeadlessJMeter.runDirectory("tls-waterfall");
        Map<String, String> properties = Map.of("host", "127.0.0.1", "h2_port", String.valueOf(server.port(Listener.H2)),
                "sample_variables", TlsColumns.SAMPLE_VARIABLES,
                "jmeter.save.saveservice.output_format", "xml",
                "jmeter.save.saveservice.subresults", "true",
                "jmeter.save.saveservice.responseHeaders", "true");

        // Two h2 page loads, each on a new connection (the plan bin/sampler-screenshots draws).
        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("../bin/lib/waterfall-listener.jmx"), dir, properties,
                Duration.ofMinutes(3));
        List<PageSample> pages = new ArrayList<>();
        new XmlJtlReader(run.jtl(), false).read(pages::add);

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(pages).hasSize(2).allSatisfy(page -> {
            assertThat(page.parts()).hasSize(17);
            assertThat(page.parts().get(0).tlsMillis()).isPositive()
                    .isLessThanOrEqualTo(page.parts().get(0).connectMillis());
            assertThat(page.parts().subList(1, 17)).extracting(PageSample::tlsMillis).containsOnly(0L);
        });
        assertThat(pages).allSatisfy(page -> assertThat(WaterfallSvg.render(page, WaterfallRow.of(page)))
                .containsOnlyOnce("<rect class=\"tls\"").contains(">TLS</text>"));
    }
}
