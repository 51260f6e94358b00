package io.h2bench.sampler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What every server of the interoperability matrix serves (issue 39): the same files in one
 * {@code htdocs} folder and h2bench's generated certificate as PEM files, in a test's directory.
 */
final class InteropSite {

    /** The GETs of every cell: name and size; random bytes, so no server compresses them. */
    static final Map<String, Integer> OBJECTS = objects();
    /** A compressible text for the content-coding checks (about 270 kB of lines). */
    static final String TEXT = "/text.txt";
    /** The body of every cell's POST. */
    static final byte[] POST_BODY = postBody();

    /*
     * The routes a server with a configuration language answers beside its files (nghttpd and
     * gtlsserver serve files only): a redirect chain that ends at /100B.bin (302, then 301), a
     * response that sets COOKIE, and one that is 200 only for a request that carries it (403 else).
     */
    static final String REDIRECT = "/redirect";
    static final String REDIRECTED = "/redirected";
    static final String REDIRECT_END = "/100B.bin";
    static final String SET_COOKIE = "/set-cookie";
    static final String NEEDS_COOKIE = "/needs-cookie";
    static final String COOKIE_NAME = "h2bench";
    static final String COOKIE_VALUE = "39";
    /** A Cookie header's value that carries the cookie, as a regular expression for the servers' matchers. */
    static final String COOKIE_REGEX = "(^|;\\s*)" + COOKIE_NAME + "=" + COOKIE_VALUE + "(;|$)";

    final Path directory;
    final Path htdocs;
    final Path key;
    final Path certificate;
    private final Map<String, byte[]> files = new LinkedHashMap<>();

    private InteropSite(Path directory) throws IOException, GeneralSecurityException {
        this.directory = directory;
        // A server started as root serves as an unprivileged user, which must reach the files.
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        htdocs = Files.createDirectories(directory.resolve("htdocs"));
        Random random = new Random(39);
        for (Map.Entry<String, Integer> object : OBJECTS.entrySet()) {
            byte[] bytes = new byte[object.getValue()];
            random.nextBytes(bytes);
            write(object.getKey(), bytes);
        }
        write(TEXT, lines(random));
        // what the cookie routes answer where a server's configuration serves them as files (Apache, Caddy)
        write(SET_COOKIE, "cookie set\n".getBytes(StandardCharsets.US_ASCII));
        write(NEEDS_COOKIE, "cookie seen\n".getBytes(StandardCharsets.US_ASCII));
        Path[] pem = io.h2bench.client.PemFiles.generated(directory);
        key = pem[0];
        certificate = pem[1];
    }

    static InteropSite in(Path directory) throws IOException, GeneralSecurityException {
        return new InteropSite(directory);
    }

    byte[] file(String path) {
        return files.get(path);
    }

    private void write(String path, byte[] bytes) throws IOException {
        Files.write(htdocs.resolve(path.substring(1)), bytes);
        files.put(path, bytes);
    }

    private static Map<String, Integer> objects() {
        Map<String, Integer> objects = new LinkedHashMap<>();
        objects.put("/100B.bin", 100);
        objects.put("/44kB.bin", 44_000);
        objects.put("/2MiB.bin", 2 * 1024 * 1024);
        return objects;
    }

    private static byte[] postBody() {
        return IntStream.range(0, 2_000).mapToObj(i -> String.format("line %04d of the POST body%n", i))
                .collect(Collectors.joining()).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] lines(Random random) {
        List<String> words = List.of("alpha", "beta", "gamma", "delta", "h2bench", "interop", "nginx", "frame", "window", "stream");
        return IntStream.range(0, 3000)
                .mapToObj(line -> IntStream.range(0, 12)
                        .mapToObj(word -> words.get(random.nextInt(words.size())) + random.nextInt(1000))
                        .collect(Collectors.joining(" ")))
                .collect(Collectors.joining("\n", "", "\n")).getBytes(StandardCharsets.UTF_8);
    }
}
