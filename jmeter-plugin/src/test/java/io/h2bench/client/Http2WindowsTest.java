package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ProtocolMode;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/2 windows the client announces, read off the wire by a raw socket: a browser's (Chrome:
 * 6 MiB per stream, 15 MiB per session), so that HTTP/2 flow control never holds a large download
 * that TCP would let through (issue 19).
 */
class Http2WindowsTest {

    private static final int DEFAULT_WINDOW = 65_535;

    /** What the client's first frames said: its stream window and its session window. */
    private record Windows(int stream, long session) {
    }

    @Test
    void shouldAnnounceChromesStreamAndSessionWindowsWhenItOpensAnHttp2Connection() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Windows> announced = CompletableFuture.supplyAsync(() -> readWindows(listener));
            try (UserConnections user = UserConnections.open()) {
                URI uri = URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/");
                // The raw server closes after the client's first frames: the exchange fails, as it may.
                user.send(ExchangeRequest.get(uri, ProtocolMode.H2C).withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5)));
            }
            Windows windows = announced.get(10, TimeUnit.SECONDS);
            assertThat(windows.stream()).isEqualTo(6 * 1024 * 1024);
            assertThat(windows.session()).isEqualTo(15L * 1024 * 1024);
        }
    }

    /** Reads the preface and frames up to the first HEADERS: SETTINGS_INITIAL_WINDOW_SIZE and stream 0's WINDOW_UPDATE. */
    private static Windows readWindows(ServerSocket listener) {
        try (Socket socket = listener.accept()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            in.readFully(new byte[RawFrame.PREFACE_BYTES]);
            int stream = DEFAULT_WINDOW;
            long session = DEFAULT_WINDOW;
            while (true) {
                RawFrame frame = RawFrame.read(in);
                byte[] payload = frame.payload();
                if (frame.type() == RawFrame.SETTINGS) {
                    for (int i = 0; i + 6 <= payload.length; i += 6) {
                        int id = ((payload[i] & 0xff) << 8) | (payload[i + 1] & 0xff);
                        if (id == RawFrame.SETTINGS_INITIAL_WINDOW_SIZE) {
                            stream = frame.intAt(i + 2);
                        }
                    }
                } else if (frame.type() == RawFrame.WINDOW_UPDATE && frame.streamId() == 0) {
                    session += frame.intAt(0) & 0x7fff_ffff;
                } else if (frame.type() == RawFrame.HEADERS) {
                    return new Windows(stream, session);
                }
            }
        } catch (IOException failure) {
            throw new IllegalStateException("the client's first frames could not be read", failure);
        }
    }
}
