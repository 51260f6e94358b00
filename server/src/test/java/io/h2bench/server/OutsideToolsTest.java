package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server as curl and nghttp (nghttp2's client) see it: tools that share no code with Jetty or
 * the JDK. CI installs both; a machine without them skips these checks and says so.
 */
class OutsideToolsTest {

    private static H2BenchServer server;

    @BeforeAll
    static void start() throws Exception {
        server = H2BenchServer.start(ServerSettings.ephemeral());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void shouldNegotiateH2WithCurlWhenAskedOverTls() throws Exception {
        assumeTrue(installed("curl"), "curl is not installed");

        String version = run("curl", "-sk", "--http2", server.baseUri(Listener.H2) + "/", "-o", "/dev/null",
                "-w", "%{http_version}");

        assertThat(version).isEqualTo("2");
    }

    @Test
    void shouldStayOnHttp11WithCurlWhenTheListenerOffersOnlyHttp11() throws Exception {
        assumeTrue(installed("curl"), "curl is not installed");

        String version = run("curl", "-sk", "--http2", server.baseUri(Listener.H1_TLS) + "/", "-o", "/dev/null",
                "-w", "%{http_version}");

        assertThat(version).isEqualTo("1.1");
    }

    @Test
    void shouldSpeakH2cByPriorKnowledgeWithCurl() throws Exception {
        assumeTrue(installed("curl"), "curl is not installed");

        String answer = run("curl", "-s", "--http2-prior-knowledge", server.baseUri(Listener.H2C) + "/small-text.txt",
                "-o", "/dev/null", "-w", "%{http_version} %{size_download}");

        assertThat(answer).isEqualTo("2 45056");
    }

    @Test
    void shouldSendSixteenPushPromisesToNghttpWhenThePushPageIsLoaded() throws Exception {
        assumeTrue(installed("nghttp"), "nghttp is not installed");

        String frames = run("nghttp", "-v", server.baseUri(Listener.H2) + "/push");

        assertThat(frames.lines().filter(line -> line.contains("recv PUSH_PROMISE frame"))).hasSize(16);
    }

    private static boolean installed(String tool) {
        try {
            return new ProcessBuilder(tool, "--version").redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command[0]).isTrue();
        return new String(output, StandardCharsets.UTF_8).strip();
    }
}
