package io.h2bench.server.h3;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.netty.handler.codec.quic.Quic;

/**
 * Which quiche the h3 listener runs: the JNI library Netty's loader takes, found as that loader finds
 * it (netty-common 4.2.18's {@code NativeLibraryLoader}: the JVM's library path first, then the class
 * path's {@code META-INF/native/}), and told by its bytes: server/native/build-quiche.sh writes the
 * string {@code h2bench-quiche-build: quiche VERSION with PATCHES} into the library it builds with
 * h2bench's CUBIC patches (issue 38), Netty's own has none.
 *
 * @param location where the library was found, or null when nowhere
 * @param build    the patched build's string after its prefix ({@code quiche 0.29.3 with ...}), or null
 */
public record QuicheLibrary(String location, String build) {

    /** The name Netty 4.2's {@code Quic} loads on Linux x86-64, the only platform h2bench's server runs h3 on. */
    static final String FILE_NAME = System.mapLibraryName("netty_quiche42_linux_x86_64");
    /** quiche's version in Netty 4.2.18's library (its jar's manifest names that release's revision). */
    static final String NETTY_QUICHE = "quiche 0.29.3";
    private static final String MARKER = "h2bench-quiche-build: ";
    private static final String PACING_PATCH = "quiche-pacing-builds-when-due.patch";

    /**
     * The library Netty's loader takes in this JVM, read once: a JVM loads one, and it is 6 MB to scan (the banner
     * and each h3 listener's start ask).
     */
    public static QuicheLibrary loaded() {
        return Loaded.LIBRARY;
    }

    private static final class Loaded {
        static final QuicheLibrary LIBRARY = read();
    }

    private static QuicheLibrary read() {
        try {
            for (String directory : libraryPath()) {
                Path file = Path.of(directory).resolve(FILE_NAME);
                if (Files.isRegularFile(file)) {
                    try (InputStream in = Files.newInputStream(file)) {
                        return new QuicheLibrary(file.toString(), build(in.readAllBytes()).orElse(null));
                    }
                }
            }
            URL resource = Quic.class.getClassLoader().getResource("META-INF/native/" + FILE_NAME);
            if (resource == null) {
                return new QuicheLibrary(null, null);
            }
            try (InputStream in = resource.openStream()) {
                return new QuicheLibrary(resource.toString(), build(in.readAllBytes()).orElse(null));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the quiche library Netty loads", e);
        }
    }

    /** Whether this is build-quiche.sh's library with h2bench's CUBIC patches. */
    public boolean patched() {
        return build != null;
    }

    /**
     * Whether this quiche paces by building each packet when it may leave (quiche-pacing-builds-when-due.patch):
     * then the listener needs no {@link Pacer} of its own, and must have none (it would hold what quiche just built).
     */
    public boolean pacesWhenBuilding() {
        return build != null && build.contains(PACING_PATCH);
    }

    /** For the banner's QUIC line. */
    public String describe() {
        if (location == null) {
            return "no quiche library found (" + FILE_NAME + ")";
        }
        if (pacesWhenBuilding()) {
            return build.substring(0, build.indexOf(" with ")) + " with h2bench's CUBIC and pacing patches";
        }
        if (patched()) {
            return build.substring(0, build.indexOf(" with ")) + " with h2bench's CUBIC patches";
        }
        return NETTY_QUICHE + " as Netty ships it (window cuts roll back: see the benchmarks page, \"quiche's CUBIC, patched\")";
    }

    /** Where {@code System.loadLibrary} looks, in its order. */
    private static List<String> libraryPath() {
        List<String> directories = new ArrayList<>();
        for (String property : List.of("sun.boot.library.path", "java.library.path")) {
            for (String directory : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!directory.isEmpty()) {
                    directories.add(directory);
                }
            }
        }
        return directories;
    }

    /** The string after the marker, up to its terminating NUL. */
    static Optional<String> build(byte[] library) {
        String bytes = new String(library, StandardCharsets.ISO_8859_1); // one char per byte
        int at = bytes.indexOf(MARKER);
        if (at < 0) {
            return Optional.empty();
        }
        int end = bytes.indexOf('\0', at);
        return Optional.of(bytes.substring(at + MARKER.length(), end < 0 ? bytes.length() : end));
    }
}
