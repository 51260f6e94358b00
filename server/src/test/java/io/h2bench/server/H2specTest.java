package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The real h2spec (RFC 7540/7541 conformance, v2.2.1: 145 tests) against the h2 and h2c listeners,
 * both at once to halve the wall time. CI installs h2spec and must run this; elsewhere it may skip.
 */
class H2specTest {

    private static final Path REPORTS = Paths.get("target", "h2spec");

    private static H2BenchServer server;
    private static Path h2Report;
    private static Path h2cReport;

    @BeforeAll
    static void runH2specOnBothListeners() throws Exception {
        Optional<Path> h2spec = h2spec();
        if (h2spec.isEmpty() && "true".equals(System.getenv("CI"))) {
            fail("h2spec is not installed; .ci/run installs it with go install");
        }
        assumeTrue(h2spec.isPresent(), "h2spec is not installed (go install github.com/summerwind/h2spec/cmd/h2spec@v2.2.1)");
        server = H2BenchServer.start(ServerSettings.ephemeral());
        Files.createDirectories(REPORTS);
        h2Report = REPORTS.resolve("h2.xml");
        h2cReport = REPORTS.resolve("h2c.xml");
        Process h2 = start(h2spec.get(), server.port(Listener.H2), h2Report, "-t", "-k");
        Process h2c = start(h2spec.get(), server.port(Listener.H2C), h2cReport);
        awaitReport(h2, h2Report);
        awaitReport(h2c, h2cReport);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldPassEveryH2specTestWhenRunOverTlsWithAlpn() throws Exception {
        assertEveryTestPassed(h2Report);
    }

    @Test
    void shouldPassEveryH2specTestWhenRunOverClearTextPriorKnowledge() throws Exception {
        assertEveryTestPassed(h2cReport);
    }

    private static void assertEveryTestPassed(Path report) throws Exception {
        NodeList cases = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                .getElementsByTagName("testcase");
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < cases.getLength(); i++) {
            Element test = (Element) cases.item(i);
            boolean passed = test.getElementsByTagName("failure").getLength() == 0
                    && test.getElementsByTagName("error").getLength() == 0;
            if (!passed) {
                failed.add(test.getAttribute("package") + " " + test.getAttribute("classname"));
            }
        }
        assertThat(cases.getLength()).as("h2spec test cases in %s", report).isGreaterThanOrEqualTo(145);
        assertThat(failed).as("h2spec tests failed (details in %s)", report).isEmpty();
    }

    private static Process start(Path h2spec, int port, Path report, String... tls) throws Exception {
        List<String> command = new ArrayList<>(List.of(h2spec.toString(), "-h", "127.0.0.1", "-p", Integer.toString(port),
                "-o", "3", "-j", report.toString()));
        command.addAll(List.of(tls));
        Files.deleteIfExists(report);
        Path log = Paths.get(report.toString().replace(".xml", ".log"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void awaitReport(Process h2spec, Path report) throws Exception {
        if (!h2spec.waitFor(240, TimeUnit.SECONDS)) {
            h2spec.destroyForcibly();
            fail("h2spec did not finish within 240 s");
        }
        assertThat(report).as("h2spec's JUnit report").exists();
    }

    /** h2spec on PATH, else where go install puts it ($GOBIN, $GOPATH/bin, ~/go/bin). */
    private static Optional<Path> h2spec() {
        Stream<String> path = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator));
        Stream<String> go = Stream.of(System.getenv("GOBIN"),
                System.getenv("GOPATH") == null ? null : System.getenv("GOPATH") + "/bin",
                System.getProperty("user.home") + "/go/bin");
        return Stream.concat(path, go)
                .filter(directory -> directory != null && !directory.isEmpty())
                .map(directory -> Paths.get(directory, "h2spec"))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
