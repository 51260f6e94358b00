package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Debian's headless Chromium loading one page and printing its DOM, with its net log, every name
 * mapped to loopback by {@code --host-resolver-rules} ({@code h2bench.test} and its subdomains) and
 * every other name refused.
 *
 * <p>Chromium drops every connection and fails the requests in flight when the machine's network
 * changes (ERR_NETWORK_CHANGED): a device or address added or removed anywhere on the machine, such
 * as a kernel link's TUN that a test of the other module or another build starts. A load during
 * which Chromium's net log shows such a change says nothing of the server: {@link #load} repeats it.
 */
final class HeadlessChromium {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    /** Loads disturbed by a network change before giving up. */
    private static final int TRIES = 8;
    /** The net log's events for a change of the machine's network, each of which resets connections. */
    private static final List<String> NETWORK_CHANGES =
            List.of("NETWORK_IP_ADDRESSES_CHANGED", "NETWORK_CONNECTIVITY_CHANGED", "NETWORK_CHANGED");

    private HeadlessChromium() {
    }

    static void assumeInstalled() {
        if (!Files.isExecutable(CHROMIUM) && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must install Debian's chromium (bin/test): " + CHROMIUM + " is missing");
        }
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed (apt-get install chromium)");
    }

    /** The base64 SHA-256 of the certificate's public key, as {@code --ignore-certificate-errors-spki-list} takes it. */
    static String publicKeyPin(TlsMaterial tls) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            store.load(in, tls.password().toCharArray());
        }
        byte[] key = store.getCertificate(store.aliases().nextElement()).getPublicKey().getEncoded();
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(key));
    }

    /** The first load, each in a fresh profile after {@code beforeEach}, that no network change disturbed. */
    static PageLoad load(String url, Path profile, BeforeLoad beforeEach, String... flags) throws Exception {
        List<Long> changes = new ArrayList<>();
        for (int attempt = 1; attempt <= TRIES; attempt++) {
            beforeEach.run();
            PageLoad load = loadOnce(url, profile.resolve("load-" + attempt), flags);
            long changed = NETWORK_CHANGES.stream().mapToLong(type -> load.events(type).count()).sum();
            if (changed == 0) {
                return load;
            }
            changes.add(changed);
            System.err.println(url + ": Chromium saw " + changed + " network changes during load " + attempt + "; loading again");
        }
        throw new AssertionError("the machine's network changed during each of " + TRIES + " loads (" + changes
                + " changes in Chromium's net logs): another process keeps adding or removing devices or addresses");
    }

    private static PageLoad loadOnce(String url, Path profile, String... flags) throws IOException, InterruptedException {
        Files.createDirectories(profile);
        Path dom = profile.resolve("dom.html");
        Path netLog = profile.resolve("net-log.json");
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(),
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-extensions",
                "--user-data-dir=" + profile.resolve("user"), "--log-net-log=" + netLog,
                // Every *.h2bench.test to loopback, any other name unresolvable: no traffic leaves the machine.
                "--host-resolver-rules=MAP h2bench.test 127.0.0.1, MAP *.h2bench.test 127.0.0.1, MAP * ~NOTFOUND"));
        command.addAll(List.of(flags));
        command.addAll(List.of("--dump-dom", url));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dom.toFile())
                .redirectError(profile.resolve("chromium.log").toFile());
        // Chromium's singleton socket goes to TMPDIR and stays there when it is killed: the profile's, deleted with it.
        builder.environment().put("TMPDIR", profile.toString());
        Process chromium = builder.start();
        try {
            assertThat(chromium.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        } finally {
            chromium.descendants().forEach(ProcessHandle::destroyForcibly);
            chromium.destroyForcibly().waitFor();
        }
        return new PageLoad(Files.readString(dom, StandardCharsets.UTF_8), Files.readString(netLog, StandardCharsets.UTF_8));
    }

    /** What to do before each load, such as emptying the server's counts. */
    interface BeforeLoad {
        void run() throws Exception;
    }

    /** What one Chromium run printed and its net log: one event a line, its type a number the log's constants name. */
    record PageLoad(String dom, String netLog) {

        Stream<String> events(String type) {
            Matcher number = Pattern.compile("\"" + type + "\":(\\d+)").matcher(netLog);
            assertThat(number.find()).as(type + " among the net log's event types").isTrue();
            String end = "\"type\":" + number.group(1) + "}";
            return netLog.lines().filter(line -> line.endsWith(end) || line.endsWith(end + ","));
        }
    }
}
