package io.h2bench.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The private temporary directory quiche reads the h3 listener's key and certificate from, as PEM
 * files. Named after this process, so that the next server's start removes what a killed one
 * (SIGKILL, no shutdown hook) left behind; an orderly stop removes its own.
 */
final class PemDirectory {

    static final String PREFIX = "h2bench-quic-";
    private static final Pattern OWNER = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-.*");

    private PemDirectory() {
    }

    /** A new directory only this user may read, after removing those of processes that are gone. */
    static Path create() throws IOException {
        removeLeftovers();
        return Files.createTempDirectory(PREFIX + ProcessHandle.current().pid() + "-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    static void delete(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(PemDirectory::deleteFile);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void removeLeftovers() throws IOException {
        Path temporary = Path.of(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> directories = Files.newDirectoryStream(temporary, PREFIX + "*")) {
            for (Path directory : directories) {
                Matcher owner = OWNER.matcher(directory.getFileName().toString());
                if (owner.matches() && ProcessHandle.of(Long.parseLong(owner.group(1))).isEmpty()) {
                    deleteIfAllowed(directory);
                }
            }
        }
    }

    private static void deleteIfAllowed(Path directory) {
        try {
            delete(directory);
        } catch (IOException e) {
            // another user's, or removed meanwhile by another server: not this start's to insist on
        }
    }

    private static void deleteFile(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
