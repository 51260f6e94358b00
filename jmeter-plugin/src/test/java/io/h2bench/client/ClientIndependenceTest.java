package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.connect.SharedClient;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The client, every package under it included, must stay usable (and testable) with no JMeter on the classpath. */
class ClientIndependenceTest {

    @Test
    void shouldReferenceNoJMeterClassWhenCompiled() throws IOException, URISyntaxException {
        Path classes = Path.of(SharedClient.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("io/h2bench/client");
        List<Path> compiled;
        try (Stream<Path> files = Files.walk(classes)) {
            compiled = files.filter(file -> file.toString().endsWith(".class")).toList();
        }

        assertThat(compiled).as("the client's classes, its sub-packages' too").hasSizeGreaterThan(50);
        for (Path file : compiled) {
            // Class names in the constant pool are stored in this internal form.
            String constants = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            assertThat(constants).as(file.getFileName().toString()).doesNotContain("org/apache/jmeter");
        }
    }
}
