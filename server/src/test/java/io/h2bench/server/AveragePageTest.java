package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.eclipse.jetty.client.ContentResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.h2bench.server.objects.AveragePage;

/** Seed 001's 16-origin page: the seed's Table 1, virtual hosts, and connections per origin. */
class AveragePageTest extends SharedServerTest {

    /** Table 1's requests per origin, domain1 (its page included) to domain16. */
    static final List<Integer> TABLE_1_REQUESTS = List.of(3, 3, 5, 4, 7, 2, 2, 4, 3, 5, 8, 2, 2, 10, 10, 10);

    @BeforeEach
    void forgetEarlierLoads() throws Exception {
        forgetConnections(server);
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void shouldServeTheSeedsEightyFilesWhenThePageIsLoadedOnAnyListener(Listener listener) throws Exception {
        try (OriginClient client = new OriginClient(listener, 6)) {
            List<ContentResponse> files = client.loadAveragePage(listener, server.port(listener));

            assertThat(files).hasSize(80).allSatisfy(file -> assertThat(file.getStatus()).isEqualTo(200));
            long bytes = files.stream().mapToLong(file -> file.getContent().length).sum();
            // Sized to the 2019 Web Almanac's median page of about 1,900 kB.
            assertThat(bytes).isBetween(1_850_000L, 1_950_000L);
        }
    }

    @Test
    void shouldLinkTable1sCountsPerDomainWhenThePageIsRead() throws Exception {
        try (OriginClient client = new OriginClient(Listener.H1, 1)) {
            String html = client.get(pageUri(Listener.H1)).getContentAsString();

            Map<Integer, Long> perDomain = Arrays.stream(html.split("\n"))
                    .filter(line -> line.contains(AveragePage.DOMAIN_SUFFIX))
                    .collect(Collectors.groupingBy(AveragePageTest::domainOfLine, TreeMap::new, Collectors.counting()));
            // Table 1's row sums less domain1's page.
            assertThat(perDomain.values()).containsExactly(2L, 3L, 5L, 4L, 7L, 2L, 2L, 4L, 3L, 5L, 8L, 2L, 2L, 10L, 10L, 10L);
            assertThat(html).contains("domain13.h2bench.test:" + server.port(Listener.H1) + "/average/flash1.swf");
        }
    }

    @Test
    void shouldServeAResourceOnlyFromItsOwnOriginWhenAskedByHostName() throws Exception {
        try (OriginClient client = new OriginClient(Listener.H2, 1)) {
            String base = "https://" + AveragePage.host(14) + ":" + server.port(Listener.H2);
            String other = "https://" + AveragePage.host(1) + ":" + server.port(Listener.H2);

            assertThat(client.get(base + "/average/img10.jpeg").getStatus()).isEqualTo(200);
            assertThat(client.get(other + "/average/img10.jpeg").getStatus()).isEqualTo(404);
            assertThat(client.get(base + "/average/img11.jpeg").getStatus()).isEqualTo(404);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Listener.class, names = {"H2", "H2C"})
    void shouldSeeOneConnectionPerOriginWhenAnHttp2ClientLoadsThePage(Listener listener) throws Exception {
        try (OriginClient client = new OriginClient(listener, 1)) {
            client.loadAveragePage(listener, server.port(listener));
        }

        assertThat(connectionsPerOrigin(listener)).hasSize(16).allSatisfy((origin, count) -> assertThat(count).isEqualTo(1));
        assertThat(requestsPerOrigin(server, listener)).isEqualTo(TABLE_1_REQUESTS);
    }

    @ParameterizedTest
    @EnumSource(value = Listener.class, names = {"H1", "H1_TLS"})
    void shouldSeeUpToSixConnectionsPerOriginWhenAnHttp1ClientLoadsThePage(Listener listener) throws Exception {
        try (OriginClient client = new OriginClient(listener, 6)) {
            client.loadAveragePage(listener, server.port(listener));
        }

        // How many of the six a busy client opens depends on how fast the first answers come back.
        assertThat(connectionsPerOrigin(listener)).hasSize(16).allSatisfy((origin, count) -> assertThat(count).isBetween(1, 6));
        assertThat(requestsPerOrigin(server, listener)).isEqualTo(TABLE_1_REQUESTS);
    }

    private static Map<String, Integer> connectionsPerOrigin(Listener listener) throws Exception {
        Map<String, Set<String>> connections = connectionsPerOrigin(server, listener);
        assertThat(sharedConnections(connections)).as("connections shared by origins").isZero();
        return connections.entrySet().stream().collect(
                Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size(), (a, b) -> a, TreeMap::new));
    }

    /** Empties the server's record of connections and requests per origin. */
    static void forgetConnections(H2BenchServer server) throws Exception {
        try (OriginClient client = new OriginClient(Listener.H1, 1)) {
            client.delete(server.baseUri(Listener.H1).resolve("/average/connections").toString());
        }
    }

    /** The server's own record of client connections per origin, as {@code /average/connections} lists them. */
    static Map<String, Set<String>> connectionsPerOrigin(H2BenchServer server, Listener listener) throws Exception {
        return report(server, listener).stream().collect(Collectors.toMap(fields -> fields[0],
                fields -> Set.of(fields[2].split(",")), (a, b) -> a, TreeMap::new));
    }

    /** Requests per origin, domain1 to domain16 in order. */
    static List<Integer> requestsPerOrigin(H2BenchServer server, Listener listener) throws Exception {
        Map<Integer, Integer> byDomain = report(server, listener).stream().collect(Collectors.toMap(
                fields -> AveragePage.domainOf(fields[0].substring(0, fields[0].indexOf(':'))),
                fields -> Integer.parseInt(fields[3]), (a, b) -> a, TreeMap::new));
        return List.copyOf(byDomain.values());
    }

    /** The lines of {@code /average/connections} for this listener's origins, split into fields. */
    private static List<String[]> report(H2BenchServer server, Listener listener) throws Exception {
        try (OriginClient client = new OriginClient(Listener.H1, 1)) {
            String report = client.get(server.baseUri(Listener.H1).resolve("/average/connections").toString()).getContentAsString();
            String port = ":" + server.port(listener);
            return report.lines().map(line -> line.split(" "))
                    .filter(fields -> fields[0].endsWith(port) && fields[0].contains(AveragePage.DOMAIN_SUFFIX))
                    .toList();
        }
    }

    /** Connections that carried requests for more than one origin (coalesced): none expected. */
    static long sharedConnections(Map<String, Set<String>> perOrigin) {
        long all = perOrigin.values().stream().mapToLong(Set::size).sum();
        long distinct = perOrigin.values().stream().flatMap(Set::stream).distinct().count();
        return all - distinct;
    }

    private static String pageUri(Listener listener) {
        return listener.scheme() + "://" + AveragePage.host(1) + ":" + server.port(listener) + AveragePage.PAGE_PATH;
    }

    private static int domainOfLine(String line) {
        int start = line.indexOf("://") + 3;
        return AveragePage.domainOf(line.substring(start, line.indexOf(':', start)));
    }
}
