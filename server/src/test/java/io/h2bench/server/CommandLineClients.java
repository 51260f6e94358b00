package io.h2bench.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The outside clients that are programs run once per request (one connection each): curl, nghttp,
 * h2load, gtlsclient and a small Go program on net/http ({@link GoNetHttpClient}). Each reports
 * the status, the protocol it spoke, the body (or its length) and the response's
 * {@code X-Request-Body-Bytes} in its own way; these classes read that back into an {@link OutsideClient.Exchange}.
 */
final class CommandLineClients {

    private CommandLineClients() {
    }

    /** Every client of this kind; the Go program is built into {@code buildDir}. */
    static List<OutsideClient> all(Path buildDir) {
        return List.of(new Curl(), new Nghttp(), new H2load(), new Gtlsclient(), new GoNetHttpClient(buildDir));
    }

    /** Skips the test where {@code executable} is missing; on CI (CI=true) that is a failure, as bin/test installs it. */
    static void require(Path executable, String debianPackage) {
        if (!Files.isExecutable(executable) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install " + debianPackage + " (bin/test): " + executable + " is missing");
        }
        assumeTrue(Files.isExecutable(executable), executable + " is not installed (" + debianPackage + ")");
    }

    /** What a run of a program left: its exit code, its standard output unless sent to a file, its standard error. */
    record Run(int exitCode, String out, String err) {

        String message() {
            String text = (err.isBlank() ? out : err).strip().replace('\n', ' ');
            return "exit " + exitCode + ": " + (text.length() > 300 ? text.substring(0, 300) + "..." : text);
        }
    }

    static Run run(List<String> command, Path stdoutFile, Path work) throws IOException, InterruptedException {
        Path out = stdoutFile != null ? stdoutFile : Files.createTempFile(work, "out", ".txt");
        Path err = Files.createTempFile(work, "err", ".txt");
        Process process = new ProcessBuilder(command).directory(work.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                return new Run(-1, "", command.get(0) + " did not finish in 60 s");
            }
        } finally {
            process.destroyForcibly().waitFor();
        }
        String stdout = stdoutFile != null ? "" : Files.readString(out, StandardCharsets.ISO_8859_1);
        return new Run(process.exitValue(), stdout, Files.readString(err, StandardCharsets.ISO_8859_1));
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The ask's body in a file of {@code work}, for a client that sends a file; null when it has none. */
    static Path bodyFile(OutsideClient.Ask ask, Path work) throws IOException {
        return ask.body() == null ? null : Files.write(Files.createTempFile(work, "post", ".bin"), ask.body());
    }

    private static String group(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        return matcher.find() ? matcher.group(1) : null;
    }

    /** A program run once per ask: one process, one connection, one exchange. */
    abstract static class Program implements OutsideClient {

        private final String name;
        private final Path binary;
        private final String debianPackage;

        Program(String name, Path binary, String debianPackage) {
            this.name = name;
            this.binary = binary;
            this.debianPackage = debianPackage;
        }

        @Override
        public String name() {
            return name;
        }

        Path binary() {
            return binary;
        }

        @Override
        public void assumeInstalled() throws Exception {
            require(binary, debianPackage);
        }

        @Override
        public List<Exchange> fetch(Mode mode, URI base, List<Ask> asks, Path work) throws Exception {
            List<Exchange> exchanges = new ArrayList<>();
            for (Ask ask : asks) {
                exchanges.add(fetch(mode, base, ask, work));
            }
            return exchanges;
        }

        abstract Exchange fetch(Mode mode, URI base, Ask ask, Path work) throws Exception;
    }

    /** curl: {@code %{http_version}} is the protocol it spoke; {@code -D} keeps the headers. Debian's 7.88.1 has no HTTP/3. */
    static final class Curl extends Program {

        Curl() {
            super("curl", Path.of("/usr/bin/curl"), "Debian's curl");
        }

        private Boolean http3;

        @Override
        public String notOffered(Mode mode) {
            return mode == Mode.H3 && !http3() ? "this curl is built without HTTP/3 (no HTTP3 among the features `curl --version` lists; "
                    + "Debian 12's 7.88.1 has none)" : null;
        }

        /** Whether this curl's build has HTTP/3: a curl that has it gets the h3 cell. */
        private boolean http3() {
            if (http3 == null) {
                try {
                    Process version = new ProcessBuilder(binary().toString(), "--version").redirectErrorStream(true).start();
                    String text = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    version.waitFor();
                    http3 = text.lines().anyMatch(line -> line.startsWith("Features:") && line.contains(" HTTP3"));
                } catch (IOException | InterruptedException e) {
                    http3 = false;
                }
            }
            return http3;
        }

        @Override
        Exchange fetch(Mode mode, URI base, Ask ask, Path work) throws Exception {
            Path body = Files.createTempFile(work, "body", ".bin");
            Path headers = Files.createTempFile(work, "headers", ".txt");
            List<String> command = new ArrayList<>(List.of(binary().toString(), "-sS", "-k", "--max-time", "30",
                    "-o", body.toString(), "-D", headers.toString(), "-w", "%{http_code} %{http_version} %{size_download}"));
            command.add(switch (mode) {
                case H1, H1_TLS -> "--http1.1";
                case H2, H2C_UPGRADE -> "--http2"; // on an http URL, --http2 asks by Upgrade: h2c
                case H2C -> "--http2-prior-knowledge";
                case H3 -> "--http3-only"; // the h3 listener's UDP port has no TCP listener to fall back to
            });
            if (ask.method().equals("HEAD")) {
                command.add("-I");
            } else if (ask.body() != null) {
                command.addAll(List.of("--data-binary", "@" + bodyFile(ask, work))); // as a form, curl's default type
            }
            command.add(base + ask.path());
            Run run = run(command, null, work);
            String[] written = run.out().trim().split(" ");
            if (run.exitCode() != 0 || written.length != 3) {
                return Exchange.failed(run.message());
            }
            String protocol = "HTTP/" + (written[1].equals("1.1") ? "1.1" : written[1].replace(".0", ""));
            byte[] bytes = ask.method().equals("HEAD") ? new byte[0] : Files.readAllBytes(body);
            String requestBodyBytes = group(Pattern.compile("(?im)^x-request-body-bytes: *(\\d+)"), Files.readString(headers));
            return new Exchange(written[0], protocol, Long.parseLong(written[2]), sha256(bytes), requestBodyBytes, null);
        }
    }

    /** nghttp (nghttp2's client): HTTP/2 only; the body on standard output, the rest in its HAR file. */
    static final class Nghttp extends Program {

        private static final Pattern STATUS = Pattern.compile("\"response\": \\{.*?\"status\": (\\d+)", Pattern.DOTALL);
        private static final Pattern VERSION = Pattern.compile("\"response\": \\{.*?\"httpVersion\": \"([^\"]+)\"", Pattern.DOTALL);
        private static final Pattern REQUEST_BODY =
                Pattern.compile("\"name\": \"x-request-body-bytes\",\\s*\"value\": \"(\\d+)\"");

        Nghttp() {
            super("nghttp", Path.of("/usr/bin/nghttp"), "Debian's nghttp2-client");
        }

        @Override
        public String notOffered(Mode mode) {
            return switch (mode) {
                case H1, H1_TLS -> "nghttp speaks HTTP/2 only (nghttp2's client has no HTTP/1.1 mode)";
                case H3 -> "nghttp 1.52 has no HTTP/3 (nghttp2's client runs over TCP only)";
                default -> null;
            };
        }

        @Override
        Exchange fetch(Mode mode, URI base, Ask ask, Path work) throws Exception {
            Path body = Files.createTempFile(work, "body", ".bin");
            Path har = Files.createTempFile(work, "nghttp", ".har");
            // nghttp speaks h2c by prior knowledge on an http URL; -u asks by Upgrade (with a body: OPTIONS * first).
            List<String> command = new ArrayList<>(List.of(binary().toString(), "--timeout=30", "--har=" + har));
            if (mode == Mode.H2C_UPGRADE) {
                command.add("-u");
            }
            if (ask.body() != null) {
                command.addAll(List.of("-d", bodyFile(ask, work).toString()));
            }
            if (!ask.method().equals("GET") && ask.body() == null) {
                command.addAll(List.of("-H", ":method: " + ask.method()));
            }
            command.add(base + ask.path());
            Run run = run(command, body, work);
            String log = Files.readString(har);
            String status = group(STATUS, log);
            if (status == null) {
                return Exchange.failed(run.message());
            }
            String protocol = group(VERSION, log).replace("HTTP/2.0", "HTTP/2");
            byte[] bytes = Files.readAllBytes(body);
            return new Exchange(status, protocol, bytes.length, sha256(bytes), group(REQUEST_BODY, log), null);
        }
    }

    /** h2load: one request on one connection ({@code -n1 -c1}); it reports the protocol, the status class and the body's length. */
    static final class H2load extends Program {

        private static final Pattern PROTOCOL = Pattern.compile("Application protocol: (\\S+)");
        private static final Pattern STATUS = Pattern.compile("status codes: 1 (\\dxx)|status codes: .*?, 1 (\\dxx)");
        private static final Pattern DATA = Pattern.compile("traffic: .*\\((\\d+)\\) data");

        H2load() {
            super("h2load", Path.of("/usr/bin/h2load"), "Debian's nghttp2-client");
        }

        @Override
        public String notOffered(Mode mode) {
            return switch (mode) {
                case H2C_UPGRADE -> "h2load has no HTTP Upgrade: in clear text it speaks h2c by prior knowledge or HTTP/1.1 (h2load --help: -p, --h1)";
                case H3 -> "h2load 1.52 in Debian 12 is built without HTTP/3 (--npn-list=h3 negotiates nothing)";
                default -> null;
            };
        }

        @Override
        public String unchecked(Mode mode, Ask ask) {
            if (ask.method().equals("HEAD") && (mode == Mode.H1 || mode == Mode.H1_TLS)) {
                return "HEAD (h2load's HTTP/1.1 parser waits for a body after a HEAD's Content-Length: "
                        + "htp_hdrs_completecb in nghttp2's src/h2load_http1_session.cc asks the status only)";
            }
            return null;
        }

        @Override
        Exchange fetch(Mode mode, URI base, Ask ask, Path work) throws Exception {
            List<String> command = new ArrayList<>(List.of(binary().toString(), "-n1", "-c1"));
            if (mode == Mode.H1) {
                command.add("--h1");
            } else if (mode == Mode.H1_TLS) {
                command.add("--npn-list=http/1.1");
            }
            if (ask.body() != null) {
                command.addAll(List.of("-d", bodyFile(ask, work).toString()));
            } else if (!ask.method().equals("GET")) {
                command.addAll(List.of("-H", ":method: " + ask.method()));
            }
            command.add(base + ask.path());
            Run run = run(command, null, work);
            String protocol = group(PROTOCOL, run.out());
            Matcher status = STATUS.matcher(run.out());
            String data = group(DATA, run.out());
            if (protocol == null || !run.out().contains("1 succeeded") || !status.find() || data == null) {
                String summary = group(Pattern.compile("(requests: .*)"), run.out());
                return Exchange.failed(summary != null ? summary + " " + run.err().strip() : run.message());
            }
            String spoken = protocol.equals("http/1.1") ? "HTTP/1.1" : protocol.startsWith("h2") ? "HTTP/2" : protocol;
            String code = status.group(1) != null ? status.group(1) : status.group(2);
            return new Exchange(code, spoken, Long.parseLong(data), null, null, null);
        }
    }

    /** gtlsclient (ngtcp2's example client, {@link Ngtcp2Client}): HTTP/3 only, a QUIC connection per request. */
    static final class Gtlsclient extends Program {

        Gtlsclient() {
            super("gtlsclient", Path.of("/usr/bin/gtlsclient"), "Debian's ngtcp2-client");
        }

        @Override
        public String notOffered(Mode mode) {
            return mode == Mode.H3 ? null : "gtlsclient is ngtcp2's HTTP/3 example client: QUIC only";
        }

        @Override
        Exchange fetch(Mode mode, URI base, Ask ask, Path work) throws Exception {
            Path downloads = Files.createTempDirectory(work, "gtlsclient");
            List<String> options = new ArrayList<>(List.of("-m", ask.method()));
            if (ask.body() != null) {
                options.add("--data=" + bodyFile(ask, work));
            }
            Ngtcp2Client client = Ngtcp2Client.fetch(base.getHost(), base.getPort(), downloads, options, ask.path());
            if (client.status(0) == 0) {
                return Exchange.failed(client.logTail(3).replace('\n', ' '));
            }
            Path saved = downloads.resolve(ask.path().substring(ask.path().lastIndexOf('/') + 1));
            byte[] bytes = Files.exists(saved) ? Files.readAllBytes(saved) : new byte[0];
            // gtlsclient speaks nothing but HTTP/3: a status it logged came over it.
            return new Exchange(Integer.toString(client.status(0)), "HTTP/3", bytes.length, sha256(bytes),
                    client.header(0, "x-request-body-bytes"), null);
        }
    }
}
