package io.h2bench.client;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ProtocolMode;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The client's own GOAWAY when a server breaks HTTP/2 (RFC 9113 5.4.1: the endpoint that detects a
 * connection error sends GOAWAY, then closes), read off the wire by a raw server: it must go out even
 * while the client's write of a large request body is under way, which the server holds by not
 * reading until it has sent its broken frame (after the request's HEADERS: a connection that fails
 * before its first request leaves that request to another connection).
 */
class ConnectionErrorGoAwayTest {

    private static final int FRAME_SIZE_ERROR = 0x6;
    /** Far more than the client's socket buffers can take while the server does not read. */
    private static final int BODY_BYTES = 16 * 1024 * 1024;
    private static final int NO_GOAWAY = -1;

    @Test
    void shouldSendItsGoAwayBeforeClosingWhenTheServerBreaksTheProtocolWhileABodyIsBeingWritten() throws Exception {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReceiveBufferSize(4096); // before bind: accepted sockets inherit it
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            CompletableFuture<Integer> goAway = CompletableFuture.supplyAsync(() -> breakThenReadGoAway(listener));
            try (UserConnections user = UserConnections.open()) {
                URI uri = URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/upload");
                ExchangeRequest upload = new ExchangeRequest("POST", uri, List.of(), new byte[BODY_BYTES], ProtocolMode.H2C,
                        Duration.ofSeconds(5), Duration.ofSeconds(20), false, false, 1, false);

                assertThat(user.send(upload).failed()).as("the upload on the broken connection").isTrue();
            }
            assertThat(goAway.get(30, SECONDS)).as("the error code of the client's GOAWAY (-1: none before the close)")
                    .isEqualTo(FRAME_SIZE_ERROR);
        }
    }

    /**
     * Opens the client's windows for the whole body, sends a PING of 4 bytes (a connection error:
     * FRAME_SIZE_ERROR), then reads the client's frames to the end: the GOAWAY's error code, or -1.
     */
    private static int breakThenReadGoAway(ServerSocket listener) {
        try (Socket socket = listener.accept()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            in.readFully(new byte[RawFrame.PREFACE_BYTES]);
            while (RawFrame.read(in).type() != RawFrame.HEADERS) {
                // the client's SETTINGS and WINDOW_UPDATE: its request comes next
            }
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            RawFrame.writeHeader(out, 6, RawFrame.SETTINGS);
            out.writeShort(RawFrame.SETTINGS_INITIAL_WINDOW_SIZE);
            out.writeInt(BODY_BYTES);
            RawFrame.writeHeader(out, 4, RawFrame.WINDOW_UPDATE);
            out.writeInt(BODY_BYTES);
            RawFrame.writeHeader(out, 4, RawFrame.PING);
            out.writeInt(0);
            out.flush();
            // Not an assertion on time: the client parses the broken PING (already in its socket)
            // while its body fills both sockets' buffers; only then does this server start to read.
            Thread.sleep(300);
            return readGoAway(in);
        } catch (IOException | InterruptedException failure) {
            throw new IllegalStateException("the raw server failed", failure);
        }
    }

    private static int readGoAway(DataInputStream in) throws IOException {
        try {
            RawFrame frame = RawFrame.read(in);
            while (frame.type() != RawFrame.GOAWAY) {
                frame = RawFrame.read(in); // the request's body
            }
            return frame.intAt(4); // after the last stream id: the error code
        } catch (EOFException closedFirst) {
            return NO_GOAWAY;
        }
    }
}
