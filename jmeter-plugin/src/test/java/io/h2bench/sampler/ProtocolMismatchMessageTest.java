package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.server.Listener;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server that speaks another protocol than the one the sampler asked for on a cleartext port
 * (issue 39): the sample's message says so in a user's words and names the mode to pick, where
 * Jetty's parsers said "invalid_frame_length", "Illegal character CNTL=0x0" or "bad response".
 */
class ProtocolMismatchMessageTest {

    private SamplerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("mismatch");
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void shouldSayTheServerAnsweredHttp11WhenH2cByPriorKnowledgeMeetsAnHttp11OnlyPort() {
        fixture.target(Listener.H1, "/small-text.txt", ProtocolMode.H2C);

        SampleResult result = fixture.sampler.sample();

        assertThat(result.isSuccessful()).isFalse();
        assertThat(result.getResponseMessage())
                .contains("answered the HTTP/2 connection preface with bytes that are not HTTP/2")
                .contains("offers no h2c by prior knowledge")
                .doesNotContain("Request to");
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolMode.class, names = {"HTTP_1_1", "H2C_UPGRADE"})
    void shouldSayTheServerAnsweredWithHttp2FramesWhenHttp11MeetsAnHttp2OnlyPort(ProtocolMode mode) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> http2Only(server), "http2-only peer");
            peer.start();
            fixture.target(Listener.H1, "/small-text.txt", mode);
            fixture.sampler.setPort(server.getLocalPort());
            fixture.sampler.setResponseTimeout("5000");

            SampleResult result = fixture.sampler.sample();

            assertThat(result.isSuccessful()).isFalse();
            assertThat(result.getResponseMessage())
                    .contains("answered with bytes that are not HTTP/1.1")
                    .contains("h2c by prior knowledge");
            peer.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    /** As nghttpd --no-tls answers a request that is not the preface: its SETTINGS, a GOAWAY, then the end. */
    private static void http2Only(ServerSocket server) {
        try (Socket socket = server.accept()) {
            socket.getInputStream().read(new byte[4096]);
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // SETTINGS, empty, stream 0
            out.write(new byte[] {0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}); // GOAWAY, last stream 0, PROTOCOL_ERROR
            out.flush();
            TimeUnit.MILLISECONDS.sleep(500);
        } catch (IOException | InterruptedException ended) {
            // the sampler closed first: nothing to do
        }
    }
}
