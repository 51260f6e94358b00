package io.h2bench.server;

import io.h2bench.server.netem.kernel.KernelLink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code -- COMMAND} part: runs a client behind the link, with the server's address in its
 * environment, and, when this process is not root, first re-executes the whole server inside a new
 * user and network namespace ({@code unshare --user --map-root-user --net}), where it may create the
 * link and the client shares its side.
 */
final class ClientCommand {

    /** Set in the re-executed server, so it does not re-execute again. */
    static final String IN_USER_NAMESPACE = "H2BENCH_IN_USER_NAMESPACE";

    private ClientCommand() {
    }

    /**
     * True when this process may not create the link's namespace itself but may create a user
     * namespace in which it can (tried with {@code unshare ... true}): then it re-executes itself.
     */
    static boolean needsUserNamespace(NetworkEngine.Kind engine) throws InterruptedException {
        if (engine == NetworkEngine.Kind.PROXY || KernelLink.mayCreateNamespaces()
                || System.getenv(IN_USER_NAMESPACE) != null) {
            return false;
        }
        try {
            Process probe = new ProcessBuilder("unshare", "--user", "--map-root-user", "--net", "true")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return probe.waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Re-runs this same java command inside a user namespace and returns its exit code. */
    static int reexecInUserNamespace() throws IOException, InterruptedException {
        ProcessHandle.Info self = ProcessHandle.current().info();
        List<String> line = new ArrayList<>(List.of("unshare", "--user", "--map-root-user", "--net", "--"));
        line.add(self.command().orElseThrow(() -> new IOException("cannot find this process's java command")));
        line.addAll(arguments());
        ProcessBuilder builder = new ProcessBuilder(line).inheritIO();
        builder.environment().put(IN_USER_NAMESPACE, "1");
        return builder.start().waitFor();
    }

    /**
     * This process's arguments, from {@code /proc/self/cmdline}: {@code ProcessHandle.Info} gives none
     * when the command line passes 4 KiB (a page), which a class path of the server's jars does.
     */
    private static List<String> arguments() throws IOException {
        String[] commandLine = Files.readString(Path.of("/proc/self/cmdline"), StandardCharsets.UTF_8).split("\0");
        return List.of(commandLine).subList(1, commandLine.length);
    }

    /** Runs the client to its end with H2BENCH_HOST and H2BENCH_H1_PORT... (H2BENCH_H3_PORT when h3 runs) set; returns its exit code. */
    static int run(List<String> command, H2BenchServer server) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        Map<String, String> env = builder.environment();
        env.put("H2BENCH_HOST", server.baseUri(Listener.H1).getHost());
        for (Listener listener : Listener.values()) {
            String name = listener.id().toUpperCase(Locale.ROOT).replace('-', '_');
            env.put("H2BENCH_" + name + "_PORT", Integer.toString(server.port(listener)));
        }
        if (server.h3Port() > 0) {
            env.put("H2BENCH_H3_PORT", Integer.toString(server.h3Port()));
        }
        Process client = builder.start();
        try {
            return client.waitFor();
        } finally {
            client.destroy();
        }
    }
}
