package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.UserConnections;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sampler's "h2c by Upgrade" against Apache httpd's mod_http2 from Debian's packages (issue 39),
 * configured here as {@code a2enmod http2} with {@code Protocols h2c http/1.1} would: the upgrade
 * carries the user's SETTINGS, and where Apache declines it the sample says it used HTTP/1.1.
 */
class ApacheH2cUpgradeTest {

    private static final Path APACHE = Path.of("/usr/sbin/apache2");
    private static final Path MODULES = Path.of("/usr/lib/apache2/modules");
    /** Users at once, each upgrading then fetching, and rounds of them: the hand run that failed had 10. */
    private static final int USERS = 10;
    private static final int ROUNDS = 3;
    /** Users, and requests each, against an Apache that offers h2c only by Upgrade (H2Direct off). */
    private static final int UPGRADE_ONLY_USERS = 4;
    private static final int UPGRADE_ONLY_REQUESTS = 5;
    /** mod_http2's debug line for an upgrade: the HTTP2-Settings value it decoded (AH03070). */
    private static final Pattern UPGRADE_SETTINGS = Pattern.compile("upgrading h2c session with HTTP2-Settings: (\\S*) ->");

    @TempDir
    Path directory;
    private OutsideServer apache;
    private Http2Sampler sampler;
    private byte[] object;
    private byte[] small;

    @BeforeEach
    void files() throws Exception {
        OutsideServer.require(APACHE, "apache2");
        InProcessJMeter.init();
        // Apache started as root serves as www-data, which must reach the files.
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path htdocs = Files.createDirectories(directory.resolve("htdocs"));
        // 44 KiB, under the connection's initial window: Apache 2.4.71 closes an upgraded connection whose
        // stream 1 waits for window (it hands the connection back to the MPM before reading the client's
        // preface and WINDOW_UPDATE, and the MPM closes it), with curl as with the sampler.
        object = new byte[44 * 1024];
        new Random(39).nextBytes(object);
        Files.write(htdocs.resolve("object.bin"), object);
        small = Arrays.copyOf(object, 100);
        Files.write(htdocs.resolve("small.bin"), small);
    }

    @AfterEach
    void stop() throws Exception {
        if (sampler != null) {
            sampler.threadFinished();
            sampler.testEnded();
        }
        if (apache != null) {
            apache.close();
        }
    }

    @Test
    void shouldUpgradeWithTheUsersSettingsWhenApacheOffersH2c() throws Exception {
        apache = start("h2c http/1.1");

        HTTPSampleResult result = sample("GET", "/object.bin", null);

        assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        assertThat(result.getResponseHeaders()).startsWith("HTTP/2.0 200");
        assertThat(result.getSamplerData()).contains("Protocol: HTTP/2.0");
        assertThat(result.getResponseMessage()).isEqualTo("OK");
        assertThat(DigestUtils.sha256Hex(result.getResponseData())).isEqualTo(DigestUtils.sha256Hex(object));
        // RFC 7540 3.2.1: the header holds the SETTINGS payload the connection then sends (the Chrome preset's).
        assertThat(settingsApacheDecoded()).containsExactlyEntriesOf(BrowserPreset.CHROME.http2().settings());
    }

    @Test
    void shouldSayItUsedHttp11WhenApacheDeclinesTheUpgradeOfARequestWithABody() throws Exception {
        apache = start("h2c http/1.1");
        String body = "{\"issue\":39}";

        HTTPSampleResult result = sample("POST", "/echo", body);

        // mod_http2 upgrades no request with a body ("upgrade with content-length ... declined").
        assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        assertThat(result.getResponseHeaders()).startsWith("HTTP/1.1 200");
        assertThat(result.getSamplerData()).contains("Protocol: HTTP/1.1");
        assertThat(result.getResponseMessage()).isEqualTo("OK (h2c Upgrade declined by the server: HTTP/1.1 was used)");
        assertThat(result.getResponseDataAsString()).isEqualTo(body);
    }

    @Test
    void shouldSayItUsedHttp11WhenApacheOffersNoH2c() throws Exception {
        apache = start("http/1.1");

        HTTPSampleResult result = sample("GET", "/object.bin", null);

        assertThat(result.getResponseHeaders()).startsWith("HTTP/1.1 200");
        assertThat(result.getResponseMessage()).isEqualTo("OK (h2c Upgrade declined by the server: HTTP/1.1 was used)");
        assertThat(DigestUtils.sha256Hex(result.getResponseData())).isEqualTo(DigestUtils.sha256Hex(object));
    }

    /**
     * mod_http2 ends an upgraded connection after its one response (GOAWAY, last stream 1), so each
     * user's second request, sent on it, was never processed and goes once more on a new connection.
     * That second try must be answered over HTTP/2 too.
     */
    @Test
    void shouldAnswerEachUsersNextRequestWhenApacheEndsTheUpgradedConnection() throws Exception {
        apache = start("h2c http/1.1");
        URI first = URI.create("http://127.0.0.1:" + apache.port() + "/small.bin");
        URI second = URI.create("http://127.0.0.1:" + apache.port() + "/object.bin");
        List<String> failures = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(USERS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                List<Future<List<ExchangeResult>>> users = new ArrayList<>();
                for (int user = 0; user < USERS; user++) {
                    users.add(threads.submit(() -> upgradeThenFetch(first, second)));
                }
                for (Future<List<ExchangeResult>> user : users) {
                    for (ExchangeResult result : user.get(60, TimeUnit.SECONDS)) {
                        byte[] expected = result.uri().equals(first) ? small : object;
                        if (result.failed() || !result.httpVersion().startsWith("HTTP/2") || !Arrays.equals(result.body(), expected)) {
                            failures.add("round " + round + " " + result.uri().getPath() + " by " + result.engine()
                                    + " on connection " + result.connectionId() + ": " + result.httpVersion() + " "
                                    + result.status() + " " + result.failureMessage() + " (retried: " + result.retried() + ")");
                        }
                    }
                }
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(failures).as("of %d users' two requests", USERS * ROUNDS).isEmpty();
    }

    /**
     * With {@code H2Direct off} Apache speaks h2c only after an Upgrade: a connection that starts with the
     * preface gets an HTTP/1.1 400, which a prior-knowledge client reads as frames. Each upgraded connection
     * carries one response (GOAWAY, last stream 1), so every request of a user needs a new connection, and
     * each such connection must be upgraded again, as curl's {@code --http2} does.
     */
    @Test
    void shouldUpgradeEveryNewConnectionWhenApacheOffersH2cOnlyByUpgrade() throws Exception {
        apache = start("h2c http/1.1", "H2Direct off");
        URI uri = URI.create("http://127.0.0.1:" + apache.port() + "/object.bin");
        List<String> failures = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(UPGRADE_ONLY_USERS);
        try {
            List<Future<List<ExchangeResult>>> users = new ArrayList<>();
            for (int user = 0; user < UPGRADE_ONLY_USERS; user++) {
                users.add(threads.submit(() -> fetch(Collections.nCopies(UPGRADE_ONLY_REQUESTS, uri))));
            }
            for (Future<List<ExchangeResult>> user : users) {
                List<ExchangeResult> results = user.get(60, TimeUnit.SECONDS);
                for (int request = 0; request < results.size(); request++) {
                    ExchangeResult result = results.get(request);
                    if (result.failed() || !result.httpVersion().startsWith("HTTP/2") || !Arrays.equals(result.body(), object)) {
                        failures.add("request " + request + " by " + result.engine() + " on connection " + result.connectionId()
                                + ": " + result.httpVersion() + " " + result.status() + " " + result.failureMessage()
                                + " (retried: " + result.retried() + ")");
                    }
                }
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(failures).as("of %d users' %d requests", UPGRADE_ONLY_USERS, UPGRADE_ONLY_REQUESTS).isEmpty();
        // Every connection Apache served over HTTP/2 began with an Upgrade: one upgrade logged per connection at least.
        assertThat(upgradesApacheLogged()).isGreaterThanOrEqualTo(UPGRADE_ONLY_USERS * 2);

        // The sampler's samples of one such user say HTTP/2, and why a request went twice where it did.
        List<HTTPSampleResult> samples = new ArrayList<>(List.of(sample("GET", "/object.bin", null)));
        for (int request = 1; request < UPGRADE_ONLY_REQUESTS; request++) {
            samples.add((HTTPSampleResult) sampler.sample());
        }
        for (HTTPSampleResult sample : samples) {
            assertThat(sample.isSuccessful()).as(sample.getResponseMessage()).isTrue();
            assertThat(sample.getResponseHeaders()).startsWith("HTTP/2.0 200");
            assertThat(sample.getResponseMessage()).isIn("OK",
                    "OK (sent again on a new connection: the server's GOAWAY said it had not processed the first try)");
        }
    }

    /** One new user, as a JMeter thread of the hand run: the first request is upgraded, the second rides on h2c. */
    private static List<ExchangeResult> upgradeThenFetch(URI first, URI second) throws InterruptedException {
        return fetch(List.of(first, second));
    }

    /** One new user sending {@code uris} one after the other in h2c Upgrade mode. */
    private static List<ExchangeResult> fetch(List<URI> uris) throws InterruptedException {
        try (UserConnections user = UserConnections.open()) {
            List<ExchangeResult> results = new ArrayList<>();
            for (URI uri : uris) {
                results.add(user.send(ExchangeRequest.get(uri, ProtocolMode.H2C_UPGRADE)
                        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(20))));
            }
            return results;
        }
    }

    private HTTPSampleResult sample(String method, String path, String body) {
        sampler = new Http2Sampler();
        sampler.setName("h2c-upgrade apache");
        sampler.setMethod(method);
        sampler.setProtocol("http");
        sampler.setDomain("127.0.0.1");
        sampler.setPort(apache.port());
        sampler.setPath(path);
        sampler.setHttpVersion(ProtocolMode.H2C_UPGRADE);
        if (body != null) {
            sampler.setPostBodyRaw(true);
            sampler.addNonEncodedArgument("", body, "");
        }
        return (HTTPSampleResult) sampler.sample();
    }

    private OutsideServer start(String protocols) throws Exception {
        return start(protocols, "");
    }

    /** @param directives more of Apache's configuration lines, after {@code Protocols} */
    private OutsideServer start(String protocols, String directives) throws Exception {
        int port = OutsideServer.freePort();
        Path config = directory.resolve("httpd.conf");
        Files.writeString(config, config(port, protocols) + directives + "\n");
        return OutsideServer.start(List.of(APACHE.toString(), "-f", config.toString(), "-DFOREGROUND"),
                directory, port, directory.resolve("apache2.out"));
    }

    /** Debian's modules, one small event MPM child; /echo answers with the request's body (mod_reflector). */
    private String config(int port, String protocols) {
        StringBuilder config = new StringBuilder();
        config.append("ServerRoot ").append(directory).append('\n')
                .append("Listen 127.0.0.1:").append(port).append('\n');
        for (String module : List.of("mpm_event", "authz_core", "mime", "reflector", "http2")) {
            config.append("LoadModule ").append(module).append("_module ").append(MODULES.resolve("mod_" + module + ".so")).append('\n');
        }
        if ("root".equals(System.getProperty("user.name"))) {
            config.append("User www-data\nGroup www-data\n");
        }
        return config.append("ServerName 127.0.0.1\n")
                .append("StartServers 1\nServerLimit 1\nThreadsPerChild 16\nMaxRequestWorkers 16\n")
                .append("MinSpareThreads 1\nMaxSpareThreads 16\n")
                .append("PidFile ").append(directory.resolve("httpd.pid")).append('\n')
                .append("DefaultRuntimeDir ").append(directory).append('\n')
                .append("ErrorLog ").append(directory.resolve("error.log")).append('\n')
                .append("LogLevel warn http2:debug\n")
                .append("TypesConfig /etc/mime.types\n")
                .append("DocumentRoot ").append(directory.resolve("htdocs")).append('\n')
                .append("<Directory ").append(directory.resolve("htdocs")).append(">\n  Require all granted\n</Directory>\n")
                .append("<Location /echo>\n  SetHandler reflector\n</Location>\n")
                .append("Protocols ").append(protocols).append('\n')
                .toString();
    }

    /** How many h2c upgrades mod_http2 logged (one per upgraded connection). */
    private long upgradesApacheLogged() throws Exception {
        return UPGRADE_SETTINGS.matcher(Files.readString(directory.resolve("error.log"), StandardCharsets.UTF_8)).results().count();
    }

    /** The SETTINGS of the one upgrade in Apache's log, decoded from base64url in their order. */
    private Map<Integer, Integer> settingsApacheDecoded() throws Exception {
        Matcher upgrade = UPGRADE_SETTINGS.matcher(Files.readString(directory.resolve("error.log"), StandardCharsets.UTF_8));
        assertThat(upgrade.find()).as("mod_http2 logged an h2c upgrade").isTrue();
        ByteBuffer payload = ByteBuffer.wrap(Base64.getUrlDecoder().decode(upgrade.group(1)));
        Map<Integer, Integer> settings = new LinkedHashMap<>();
        while (payload.remaining() >= 6) {
            settings.put(Short.toUnsignedInt(payload.getShort()), payload.getInt());
        }
        return settings;
    }
}
