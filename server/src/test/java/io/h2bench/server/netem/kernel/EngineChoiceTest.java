package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Main;
import io.h2bench.server.NetworkEngine;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.TlsMaterial;
import io.h2bench.server.netem.LinkProfile;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The auto engine takes the kernel link as root and, for an ordinary user with a client command,
 * inside a user namespace; where neither is permitted it takes the proxy and says why. The last two
 * run the server as user nobody (65534), so they need root to start and a copy of the class path
 * nobody can read.
 */
class EngineChoiceTest {

    private static final LinkProfile TEN_MS = LinkProfile.ideal().withName("10 ms").withRtt(Duration.ofMillis(10));
    private static final String NOBODY = "65534";
    private static Path classPath;

    @BeforeAll
    static void copyClassPath() throws Exception {
        KernelServer.start(TEN_MS).close(); // skips where the engine cannot run (fails on CI)
        classPath = Files.createTempDirectory("h2bench-engine-choice",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        int i = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            copy(Path.of(entry), classPath.resolve(i++ + "-" + Path.of(entry).getFileName()));
        }
        // The servers as nobody get this user's certificate, extended once to the first links' addresses,
        // so that none spends time of a busy machine generating a key of its own.
        List<String> links = new ArrayList<>();
        for (int link = 0; link < 8; link++) {
            links.add(new LinkAddresses(link).serverAddress());
        }
        TlsMaterial.load(TlsMaterial.defaultKeystore(), TlsMaterial.GENERATED_PASSWORD, true, links);
        Path keystore = Files.createDirectories(home().resolve(".h2bench")).resolve(TlsMaterial.defaultKeystore().getFileName());
        Files.copy(TlsMaterial.defaultKeystore(), keystore);
        Files.setPosixFilePermissions(keystore.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-rw-rw-"));
    }

    @AfterAll
    static void deleteClassPath() throws IOException {
        if (classPath != null) {
            deleteTree(home());
            deleteTree(classPath);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    @Test
    void shouldTakeTheKernelEngineWhenRoot() throws Exception {
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(TEN_MS);
        try (H2BenchServer server = H2BenchServer.start(settings, NetworkEngine.auto(LinkOptions.defaults()))) {
            assertThat(server.kernelLink()).isNotNull();
            assertThat(server.engineFallbackReason()).isNull();
        }
    }

    @Test
    void shouldTakeTheKernelEngineInAUserNamespaceWhenAnOrdinaryUserRunsAClientBehindTheLink() throws Exception {
        Assumptions.assumeTrue(runAsNobody(List.of(), List.of("unshare", "--user", "--map-root-user", "--net",
                "sh", "-c", "ip link set lo up && echo user namespace ok")).contains("user namespace ok"),
                "this machine does not let an ordinary user create a user and network namespace");
        String output = runAsNobody(List.of(), serverWithClient());

        assertThat(output).contains("engine: kernel (TUN link").contains("client got 200");
    }

    @Test
    void shouldFallBackToTheProxyWithItsReasonWhenNeitherRootNorAUserNamespaceIsPermitted() throws Exception {
        // nobody, then root of a user namespace that may create no further user namespaces, without capabilities
        List<String> inside = new ArrayList<>(List.of("unshare", "--user", "--map-root-user", "--",
                "sh", "-c", "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\"", "sh",
                "setpriv", "--inh-caps=-all", "--bounding-set=-all", "--"));
        String output = runAsNobody(inside, serverWithClient());

        assertThat(output)
                .contains("engine: proxy engine, because the kernel engine cannot start: cannot create a network namespace: "
                        + "operation not permitted (EPERM)")
                .contains("client got 200");
    }

    /** The server with --latency 10ms and, after --, curl fetching a small object through the link. */
    private static List<String> serverWithClient() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp;
        try (Stream<Path> entries = Files.list(classPath)) {
            cp = String.join(File.pathSeparator, entries.map(Path::toString).sorted().toList());
        }
        // C1 only and the serial collector: a short-lived server, half the CPU of the defaults when cores are busy.
        return List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Duser.home=" + home(), "-cp", cp, Main.class.getName(), "--h1-port", "0", "--tls-port", "0",
                "--h2-port", "0", "--h2c-port", "0", "--latency", "10ms", "--warm-up", "0", "--",
                "sh", "-c", "echo client got $(curl -s -o /dev/null -w '%{http_code}' "
                        + "http://$H2BENCH_HOST:$H2BENCH_H1_PORT/small-text.txt)");
    }

    private static String runAsNobody(List<String> wrapper, List<String> command) throws Exception {
        List<String> line = new ArrayList<>(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY,
                "--clear-groups", "--"));
        line.addAll(wrapper);
        line.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String text = new String(output, StandardCharsets.UTF_8);
        Assumptions.assumeFalse(text.contains("setpriv: setresuid failed"), "cannot become user nobody here");
        return text;
    }

    /** Where nobody's server writes its generated certificate. */
    private static Path home() throws IOException {
        Path home = Files.createDirectories(classPath.resolveSibling(classPath.getFileName() + "-home"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        return home;
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to);
            return;
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }
}
