package io.h2bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.h2bench.server.Listener;

/**
 * Seed 001's 16-origin page in network-sweep.jmx: the sampler resolves domain1..16.h2bench.test
 * through the plan's DNS Cache Manager (no /etc/hosts change) and opens, per origin, one
 * connection over HTTP/2 and HTTP/3 and up to six over HTTP/1.1, as the browser test sees Chromium do
 * over TCP. The server tells the connections apart by their client ends.
 */
class AveragePageOriginsIT extends PlanAgainstServer {

    @Test
    void shouldOpenOneConnectionPerOriginOnHttp2AndHttp3AndUpToSixOnHttp1WhenThePlanLoadsTheAveragePage() throws Exception {
        Map<String, String> properties = planProperties(1);
        properties.putAll(Map.of("page", "/average-page", "page_host", "domain1.h2bench.test", "warmup", "0"));

        JMeterRun run = jmeter.run(HeadlessJMeter.testPlan("network-sweep.jmx"),
                HeadlessJMeter.runDirectory("average-page"), properties, Duration.ofMinutes(4));

        assertThat(run.exitCode()).as(run.describe()).isZero();
        // The CSV JTL also holds the sub-results JMeter saves: the page document ("h2 page-0") and its 80 resources.
        assertThat(run.samples()).filteredOn(sample -> sample.label().endsWith(" page")).hasSize(hasH3() ? 5 : 4)
                .allSatisfy(sample -> assertThat(sample.success())
                .as("%s failed: %s", sample.label(), sample.failureMessage()).isTrue());
        Map<String, Set<String>> connections = connectionsPerOrigin();
        for (Listener listener : Listener.values()) {
            Map<String, Set<String>> perOrigin = onPort(connections, server.port(listener));
            int most = listener == Listener.H2 || listener == Listener.H2C ? 1 : 6;
            assertThat(perOrigin).as(listener.id()).hasSize(16)
                    .allSatisfy((origin, clients) -> assertThat(clients.size()).as(origin).isBetween(1, most));
        }
        // h3 as h2: one QUIC connection per origin (the test server's h3 has its own UDP port, so the two do not mix)
        if (hasH3()) {
            assertThat(onPort(connections, server.h3Port())).as("h3").hasSize(16)
                    .allSatisfy((origin, clients) -> assertThat(clients).as(origin).hasSize(1));
        }
    }

    /** {@code /average/connections}: origin, count and client ends of its connections, requests; one origin a line. */
    private Map<String, Set<String>> connectionsPerOrigin() throws Exception {
        HttpResponse<String> report = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(server.baseUri(Listener.H1) + "/average/connections")).build(), HttpResponse.BodyHandlers.ofString());
        return report.body().lines().map(line -> line.split(" ")).filter(fields -> fields.length == 4)
                .collect(Collectors.toMap(fields -> fields[0], fields -> Set.of(fields[2].split(",")), (a, b) -> a, TreeMap::new));
    }

    private static Map<String, Set<String>> onPort(Map<String, Set<String>> connections, int port) {
        return connections.entrySet().stream()
                .filter(entry -> entry.getKey().endsWith(".h2bench.test:" + port))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
    }
}
