package io.h2bench.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's ngtcp2 example client ({@code gtlsclient}, package {@code ngtcp2-client}): HTTP/3 from
 * code that shares nothing with Jetty or quiche. One run is one QUIC connection with one request
 * stream per path, in order; it saves each body under the path's last segment ({@code /} as
 * {@code index.html}) and logs every packet with the milliseconds since its first.
 */
public final class Ngtcp2Client {

    private static final Path BINARY = Path.of("/usr/bin/gtlsclient");
    private static final Pattern LOG_TIME = Pattern.compile("^I(\\d{8}) ");
    private static final Pattern RETRY = Pattern.compile(" pkt rx .* type=Retry ");
    private static final Pattern STREAM_RESET = Pattern.compile(" frm rx .*RESET_STREAM");
    /** A received STREAM frame with the FIN and no bytes, on a request stream (client-initiated, bidirectional). */
    private static final Pattern FIN_ONLY = Pattern.compile(" frm rx \\d+ 1RTT STREAM\\(0x[0-9a-f]+\\) id=0x([0-9a-f]+) fin=1 offset=\\d+ len=0 ");
    private static final Pattern MIN_RTT = Pattern.compile(" min_rtt=(\\d+) ");
    private static final Pattern STREAM_RX = Pattern.compile("^I(\\d{8}) .* frm rx \\d+ 1RTT STREAM\\(0x[0-9a-f]+\\) id=0x([0-9a-f]+) .*len=(\\d+) ");

    private final String log;
    private final Path downloads;
    private final long elapsedMillis;

    private Ngtcp2Client(String log, Path downloads, long elapsedMillis) {
        this.log = log;
        this.downloads = downloads;
        this.elapsedMillis = elapsedMillis;
    }

    /** Skips the test where gtlsclient is missing; on CI (CI=true) that is a failure. */
    public static void assumeInstalled() {
        if (!Files.isExecutable(BINARY) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install Debian's ngtcp2-client (bin/test): " + BINARY + " is missing");
        }
        assumeTrue(Files.isExecutable(BINARY), "gtlsclient is not installed (apt-get install ngtcp2-client)");
    }

    /** GETs {@code paths} from {@code https://host:port} over one QUIC connection, bodies into {@code downloads}. */
    public static Ngtcp2Client fetch(String host, int port, Path downloads, String... paths) throws IOException, InterruptedException {
        return fetch(host, port, downloads, List.of(), paths);
    }

    /** As {@link #fetch(String, int, Path, String...)} with more of gtlsclient's options, such as {@code -m HEAD} or {@code -d FILE}. */
    public static Ngtcp2Client fetch(String host, int port, Path downloads, List<String> options, String... paths)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "--no-quic-dump", "--no-http-dump",
                "--exit-on-all-streams-close", "--timeout=10s", "--download=" + downloads));
        command.addAll(options);
        command.addAll(List.of(host, Integer.toString(port)));
        for (String path : paths) {
            command.add("https://" + host + ":" + port + path);
        }
        Path logFile = downloads.resolve("gtlsclient.log");
        long start = System.nanoTime();
        Process client = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        long elapsed;
        try {
            if (!client.waitFor(30, TimeUnit.SECONDS)) {
                throw new IOException("gtlsclient did not finish in 30 s");
            }
            elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        } finally {
            client.destroyForcibly().waitFor();
        }
        return new Ngtcp2Client(Files.readString(logFile, StandardCharsets.UTF_8), downloads, elapsed);
    }

    /** Milliseconds from starting the client process to its exit: what a user of a new connection waits. */
    public long elapsedMillis() {
        return elapsedMillis;
    }

    /** Whether the server answered the client's first Initial with a Retry (address validation, one more round trip). */
    public boolean receivedRetry() {
        return RETRY.matcher(log).find();
    }

    /** Request streams whose FIN came in a frame of its own, with no bytes. */
    public long finOnlyFramesReceived() {
        return log.lines().map(FIN_ONLY::matcher).filter(Matcher::find)
                .filter(found -> Long.parseLong(found.group(1), 16) % 4 == 0).count();
    }

    /** RESET_STREAM frames the client received: a server that ends a complete response with one tells a browser it failed. */
    public long streamResetsReceived() {
        return log.lines().filter(line -> STREAM_RESET.matcher(line).find()).count();
    }

    /** The status of the {@code n}th request (from 0), or 0 when none arrived. */
    public int status(int n) {
        Matcher status = statusLine(n).matcher(log);
        return status.find() ? Integer.parseInt(status.group(1)) : 0;
    }

    /** The value of the {@code n}th response's header {@code name} (lower case), or null when it had none. */
    public String header(int n, String name) {
        Matcher header = Pattern.compile("http: stream 0x" + Integer.toHexString(4 * n) + " \\[" + Pattern.quote(name) + ": ([^\\]]*)\\]")
                .matcher(log);
        return header.find() ? header.group(1) : null;
    }

    /** The body saved for {@code fileName} (a path's last segment). */
    public byte[] body(String fileName) throws IOException {
        return Files.readAllBytes(downloads.resolve(fileName));
    }

    /** Milliseconds from the connection's first packet to the packet that brought the {@code n}th response's status. */
    public long millisToStatus(int n) {
        Matcher status = statusLine(n).matcher(log);
        if (!status.find()) {
            throw new IllegalStateException("no status for request " + n + " in gtlsclient's log");
        }
        long millis = -1;
        for (String line : log.substring(0, status.start()).split("\n")) {
            Matcher time = LOG_TIME.matcher(line);
            if (time.find()) {
                millis = Long.parseLong(time.group(1));
            }
        }
        return millis;
    }

    /**
     * The smallest round trip ngtcp2's recovery measured (ACK delay taken off), in ms, as its last
     * estimate logged it: the path's own, whatever either end's scheduling adds to a fetch.
     */
    public long minRttMillis() {
        Matcher rtt = MIN_RTT.matcher(log);
        long last = -1;
        while (rtt.find()) {
            last = Long.parseLong(rtt.group(1));
        }
        if (last < 0) {
            throw new IllegalStateException("no min_rtt in gtlsclient's log");
        }
        return last;
    }

    /** The lengths of the {@code n}th response's STREAM frames (its HEADERS, DATA and their FIN), in the order they arrived. */
    public List<Integer> streamFrameLengths(int n) {
        List<Integer> lengths = new ArrayList<>();
        for (String line : log.split("\n")) {
            Matcher frame = STREAM_RX.matcher(line);
            if (frame.find() && Long.parseLong(frame.group(2), 16) == 4L * n) {
                lengths.add(Integer.parseInt(frame.group(3)));
            }
        }
        return lengths;
    }

    /** The request stream (0, 1, 2 ... for ids 0, 4, 8 ...) of every STREAM frame of a response, in the order they arrived. */
    public List<Integer> responseFramesInArrivalOrder() {
        List<Integer> order = new ArrayList<>();
        for (String line : log.split("\n")) {
            Matcher frame = STREAM_RX.matcher(line);
            long id;
            if (frame.find() && (id = Long.parseLong(frame.group(2), 16)) % 4 == 0) {
                order.add((int) (id / 4));
            }
        }
        return order;
    }

    /** Request streams are client-initiated bidirectional: ids 0, 4, 8 ... */
    private static Pattern statusLine(int n) {
        return Pattern.compile("http: stream 0x" + Integer.toHexString(4 * n) + " \\[:status: (\\d{3})\\]");
    }

    public String log() {
        return log;
    }

    /** The last {@code lines} lines of gtlsclient's log: what a failed fetch was doing when it stopped. */
    public String logTail(int lines) {
        String[] all = log.split("\n");
        return String.join("\n", Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
    }
}
