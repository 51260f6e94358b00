package io.h2bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.UserConnections;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The plugin's packages as architecture.md draws them: no two packages depend on each other, even
 * through others, and the client's rooms only look down their layers. Read from the compiled classes
 * by the JDK's own {@code jdeps}, so a dependency in code counts and one in a comment does not.
 */
class PackageDependenciesTest {

    /**
     * The client's layers, top first. A package may use the packages of the layers below its own,
     * never one of its own layer nor one above: h1, h2 and h3 do not know each other.
     */
    private static final List<Set<String>> CLIENT_LAYERS = List.of(
            Set.of("client"),
            Set.of("client.h1", "client.h2", "client.h3"),
            Set.of("client.direct"),
            Set.of("client.connect"),
            Set.of("client.exchange"),
            Set.of("client.wire", "client.profile"));

    private static final Pattern ARROW = Pattern.compile("^\\s+io\\.h2bench\\.(\\S+)\\s+->\\s+io\\.h2bench\\.(\\S+)\\s");

    /** Each io.h2bench package (without the prefix) and the io.h2bench packages its classes use. */
    private static Map<String, Set<String>> uses;

    @BeforeAll
    static void readCompiledClasses() throws URISyntaxException {
        Path classes = Path.of(UserConnections.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(out),
                "-verbose:package", "-filter:none", "-e", "io\\.h2bench\\..*", classes.toString());
        assertThat(status).as("jdeps: %s", out).isZero();
        uses = new TreeMap<>();
        for (String line : out.toString().split("\n")) {
            Matcher arrow = ARROW.matcher(line);
            if (arrow.find() && !arrow.group(1).equals(arrow.group(2))) {
                uses.computeIfAbsent(arrow.group(1), ignored -> new TreeSet<>()).add(arrow.group(2));
            }
        }
    }

    @Test
    void shouldFindNoCycleBetweenPackagesWhenReadFromTheClasses() {
        assertThat(uses).as("jdeps saw the client's rooms").containsKeys("client", "client.h2", "client.connect");
        List<String> cycles = new ArrayList<>();
        for (String from : uses.keySet()) {
            for (String to : uses.get(from)) {
                List<String> back = path(to, from, new TreeSet<>());
                if (back != null && from.compareTo(to) < 0) {
                    cycles.add(from + " -> " + String.join(" -> ", back));
                }
            }
        }
        assertThat(cycles).as("package cycles (each a path back to where it starts)").isEmpty();
    }

    @Test
    void shouldLetTheClientsPackagesUseOnlyLowerLayersWhenReadFromTheClasses() {
        List<String> upOrSideways = new ArrayList<>();
        for (int layer = 0; layer < CLIENT_LAYERS.size(); layer++) {
            Set<String> below = new TreeSet<>();
            CLIENT_LAYERS.subList(layer + 1, CLIENT_LAYERS.size()).forEach(below::addAll);
            for (String from : CLIENT_LAYERS.get(layer)) {
                for (String to : uses.getOrDefault(from, Set.of())) {
                    if (to.startsWith("client") && !below.contains(to)) {
                        upOrSideways.add(from + " -> " + to);
                    }
                }
            }
        }
        Set<String> drawn = new TreeSet<>();
        CLIENT_LAYERS.forEach(drawn::addAll);
        Set<String> clientPackages = new TreeSet<>(uses.keySet());
        clientPackages.removeIf(name -> !name.equals("client") && !name.startsWith("client."));

        assertThat(upOrSideways).as("client arrows that do not point down the layers").isEmpty();
        assertThat(drawn).as("every client package has its layer").containsAll(clientPackages);
    }

    /** A path of uses from {@code from} to {@code to}, or null if there is none. */
    private static List<String> path(String from, String to, Set<String> seen) {
        if (from.equals(to)) {
            return new ArrayList<>(List.of(to));
        }
        if (!seen.add(from)) {
            return null;
        }
        for (String next : uses.getOrDefault(from, Set.of())) {
            List<String> rest = path(next, to, seen);
            if (rest != null) {
                rest.add(0, from);
                return rest;
            }
        }
        return null;
    }
}
