package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.ServerSettings;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * Runs the packaged plugin jar (after {@code mvn package}; run with failsafe) in a class loader that
 * sees only the jar and Log4j, as JMeter's lib/ext would: relocated Jetty must still find its ALPN
 * processor and HPACK encoder, and its relocated SLF4J the plugin's provider, through the merged
 * service files.
 */
class ShadedJarIT {

    private static final Path JAR = Path.of("target", "h2bench-jmeter-plugin.jar");

    @Test
    void shouldHoldOnlyRelocatedJettySlf4jAndZstdWhenPackaged() throws Exception {
        assumeTrue(Files.exists(JAR), "run after mvn package");
        try (JarFile jar = new JarFile(JAR.toFile())) {
            List<String> names = Collections.list(jar.entries()).stream().map(entry -> entry.getName()).toList();

            assertThat(names).noneMatch(name -> name.startsWith("org/eclipse/jetty/"));
            assertThat(names).noneMatch(name -> name.startsWith("org/slf4j/"));
            assertThat(names).noneMatch(name -> name.startsWith("io/airlift/"));
            assertThat(names).contains("io/h2bench/shaded/airlift/compress/zstd/ZstdInputStream.class");
            assertThat(names).contains("io/h2bench/shaded/slf4j/LoggerFactory.class",
                    "META-INF/services/io.h2bench.shaded.slf4j.spi.SLF4JServiceProvider");
            assertThat(names).noneMatch(name -> name.endsWith("module-info.class"));
            assertThat(names).noneMatch(name -> name.matches("META-INF/[^/]+\\.(SF|RSA|DSA|EC)"));
            assertThat(names).contains("io/h2bench/sampler/Http2Sampler.class", "io/h2bench/gui/Http2SamplerGui.class",
                    "META-INF/services/io.h2bench.shaded.jetty.io.ssl.ALPNProcessor$Client",
                    "META-INF/services/io.h2bench.shaded.jetty.http.HttpFieldPreEncoder");
        }
    }

    @Test
    void shouldNegotiateH2AndUpgradeH2cWhenLoadedFromTheShadedJarAlone() throws Exception {
        assumeTrue(Files.exists(JAR), "run after mvn package");
        URL log4jApi = org.apache.logging.log4j.LogManager.class.getProtectionDomain().getCodeSource().getLocation();
        URL log4jCore = org.apache.logging.log4j.core.LoggerContext.class.getProtectionDomain().getCodeSource().getLocation();
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral());
             URLClassLoader plugin = new URLClassLoader(new URL[] {JAR.toUri().toURL(), log4jApi, log4jCore},
                     ClassLoader.getPlatformClassLoader())) {
            Class<?> users = plugin.loadClass("io.h2bench.client.UserConnections");
            Object user = users.getMethod("open").invoke(null);
            try {
                Object h2 = send(plugin, user, URI.create(server.baseUri(Listener.H2) + "/style.css"), "HTTP_2");
                Object h2c = send(plugin, user, URI.create(server.baseUri(Listener.H2C) + "/style.css"), "H2C_UPGRADE");

                assertThat(h2.getClass().getMethod("failureMessage").invoke(h2)).isNull();
                assertThat(h2.getClass().getMethod("alpn").invoke(h2)).isEqualTo("h2");
                assertThat(h2.getClass().getMethod("httpVersion").invoke(h2)).isEqualTo("HTTP/2.0");
                assertThat(h2c.getClass().getMethod("httpVersion").invoke(h2c)).isEqualTo("HTTP/2.0");
            } finally {
                users.getMethod("close").invoke(user);
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object send(ClassLoader plugin, Object user, URI uri, String mode) throws Exception {
        Class<? extends Enum> modes = (Class<? extends Enum>) plugin.loadClass("io.h2bench.client.exchange.ProtocolMode");
        Class<?> requests = plugin.loadClass("io.h2bench.client.exchange.ExchangeRequest");
        Object request = requests.getMethod("get", URI.class, modes).invoke(null, uri, Enum.valueOf(modes, mode));
        return user.getClass().getMethod("send", requests).invoke(user, request);
    }
}
