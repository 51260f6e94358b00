package io.h2bench.parity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary directories for the life of the test JVM: deleted, with what they hold, when it exits. */
public final class TempDirs {

    private TempDirs() {
    }

    public static Path deletedAtExit(String prefix) {
        try {
            Path dir = Files.createTempDirectory(prefix);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "delete " + dir.getFileName()));
            return dir;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> entries = Files.walk(dir)) {
            entries.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // Best effort at exit: the directory is under the system's temporary directory anyway.
        }
    }
}
