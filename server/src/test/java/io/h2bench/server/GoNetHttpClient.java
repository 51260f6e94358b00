package io.h2bench.server;

import io.h2bench.server.OutsideClient.Ask;
import io.h2bench.server.OutsideClient.Exchange;
import io.h2bench.server.OutsideClient.Mode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's net/http through benchmarks/peer/fetch, built offline with the Go on PATH (no module to download). */
final class GoNetHttpClient extends CommandLineClients.Program {

    private static final Path SOURCE = Path.of("..", "benchmarks", "peer");
    private static final Pattern FIELD = Pattern.compile("([a-z0-9-]+)=(\\S*)");

    private boolean built;

    GoNetHttpClient(Path buildDir) {
        super("go", buildDir.resolve("go-fetch"), "Go 1.24 or later (go.dev/dl)");
    }

    /** Skips where no Go is installed (on CI a failure), then builds the program once. */
    @Override
    public void assumeInstalled() throws Exception {
        Path go = goOnPath();
        CommandLineClients.require(go == null ? Path.of("go") : go, "Go 1.24 or later (go.dev/dl)");
        if (!built) {
            ProcessBuilder build = new ProcessBuilder(go.toString(), "build", "-o", binary().toString(), "./fetch")
                    .directory(SOURCE.toFile()).redirectErrorStream(true);
            build.environment().put("GOTOOLCHAIN", "local");
            build.environment().put("GOPROXY", "off");
            Process process = build.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("go build of benchmarks/peer/fetch failed: " + output);
            }
            built = true;
        }
    }

    private static Path goOnPath() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir, "go");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        Path usual = Path.of("/usr/local/go/bin/go");
        return Files.isExecutable(usual) ? usual : null;
    }

    @Override
    public String notOffered(Mode mode) {
        return switch (mode) {
            case H2C_UPGRADE -> "Go's net/http has no h2c Upgrade client: its unencrypted HTTP/2 (Protocols.SetUnencryptedHTTP2, "
                    + "Go 1.24) is prior knowledge, and golang.org/x/net/http2/h2c is a server handler";
            case H3 -> "Go's net/http has no HTTP/3 (golang/go#32204)";
            default -> null;
        };
    }

    @Override
    Exchange fetch(Mode mode, URI base, Ask ask, Path work) throws Exception {
        String protocol = switch (mode) {
            case H2 -> "h2";
            case H2C -> "h2c";
            default -> "h1";
        };
        List<String> command = new ArrayList<>(List.of(binary().toString(), "-protocol", protocol, "-method", ask.method()));
        if (ask.body() != null) {
            command.addAll(List.of("-data", CommandLineClients.bodyFile(ask, work).toString()));
        }
        command.add(base + ask.path());
        CommandLineClients.Run run = CommandLineClients.run(command, null, work);
        if (run.exitCode() != 0) {
            return Exchange.failed(run.message());
        }
        Map<String, String> fields = new HashMap<>();
        Matcher field = FIELD.matcher(run.out());
        while (field.find()) {
            fields.put(field.group(1), field.group(2));
        }
        String requestBodyBytes = fields.getOrDefault("x-request-body-bytes", "");
        return new Exchange(fields.get("status"), fields.get("protocol").replace("HTTP/2.0", "HTTP/2"),
                Long.parseLong(fields.get("bytes")), fields.get("sha256").toLowerCase(Locale.ROOT),
                requestBodyBytes.isEmpty() ? null : requestBodyBytes, null);
    }
}
