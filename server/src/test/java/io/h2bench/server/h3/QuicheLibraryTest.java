package io.h2bench.server.h3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

import io.netty.handler.codec.quic.Quic;

/**
 * The banner's quiche: the library Netty's loader takes, told by the string build-quiche.sh writes
 * into its patched build. The server module's tests load the library the build chose, from
 * java.library.path (server/pom.xml), ahead of the copy in Netty's jar.
 */
class QuicheLibraryTest {

    @Test
    void shouldReadTheBuildWhenTheLibraryCarriesBuildQuichesString() {
        byte[] library = "\u007fELF...h2bench-quiche-build: quiche 0.29.3 with quiche-cubic-no-rollback.patch\0more"
                .getBytes(StandardCharsets.ISO_8859_1);

        assertThat(QuicheLibrary.build(library)).contains("quiche 0.29.3 with quiche-cubic-no-rollback.patch");
        assertThat(new QuicheLibrary("/lib", "quiche 0.29.3 with quiche-cubic-no-rollback.patch").describe())
                .isEqualTo("quiche 0.29.3 with h2bench's CUBIC patches");
    }

    @Test
    void shouldPaceInsideQuicheWhenTheBuildCarriesThePacingPatch() {
        QuicheLibrary cubicOnly = new QuicheLibrary("/lib", "quiche 0.29.3 with quiche-cubic-no-rollback.patch");
        QuicheLibrary paced = new QuicheLibrary("/lib",
                "quiche 0.29.3 with quiche-cubic-no-rollback.patch quiche-pacing-builds-when-due.patch");

        assertThat(cubicOnly.pacesWhenBuilding()).isFalse();
        assertThat(new QuicheLibrary("/lib", null).pacesWhenBuilding()).isFalse();
        assertThat(paced.pacesWhenBuilding()).isTrue();
        assertThat(paced.describe()).isEqualTo("quiche 0.29.3 with h2bench's CUBIC and pacing patches");
    }

    @Test
    void shouldFindNoBuildWhenTheLibraryIsNettysOwn() throws Exception {
        // the tests' class path holds Netty's copy only: the build's goes on java.library.path
        URL nettys = Quic.class.getClassLoader().getResource("META-INF/native/" + QuicheLibrary.FILE_NAME);
        assertThat(nettys).as("Netty's library on the class path").isNotNull();
        assertThat(nettys.toString()).contains("netty-codec-native-quic");

        try (InputStream library = nettys.openStream()) {
            assertThat(QuicheLibrary.build(library.readAllBytes())).isEmpty();
        }
        assertThat(new QuicheLibrary(nettys.toString(), null).describe()).startsWith("quiche 0.29.3 as Netty ships it");
    }

    @Test
    void shouldNameTheBuildsChoiceWhenTheTestsLoadItFromTheLibraryPath() throws Exception {
        Path note = Path.of(System.getProperty("h2bench.quiche.note", "target/quiche-native/h2bench-quiche-build.txt"));
        boolean builtHere = Files.readString(note).contains("built by server/native/build-quiche.sh");

        QuicheLibrary loaded = QuicheLibrary.loaded();

        assertThat(Path.of(loaded.location())).isEqualTo(note.resolveSibling(QuicheLibrary.FILE_NAME));
        assertThat(loaded.patched()).as("%s, beside the note %s", loaded, note).isEqualTo(builtHere);
    }
}
