package io.h2bench.client;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

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

    private static final int HEADERS = 0x1;
    private static final int SETTINGS = 0x4;
    private static final int PING = 0x6;
    private static final int GOAWAY = 0x7;
    private static final int WINDOW_UPDATE = 0x8;
    private static final int INITIAL_WINDOW_SIZE = 0x4;
    private static final int FRAME_SIZE_ERROR = 0x6;
    private static final int PREFACE_BYTES = 24;
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
            in.readFully(new byte[PREFACE_BYTES]);
            while (readFrame(in) != HEADERS) {
                // the client's SETTINGS and WINDOW_UPDATE: its request comes next
            }
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            frameHeader(out, 6, SETTINGS);
            out.writeShort(INITIAL_WINDOW_SIZE);
            out.writeInt(BODY_BYTES);
            frameHeader(out, 4, WINDOW_UPDATE);
            out.writeInt(BODY_BYTES);
            frameHeader(out, 4, PING);
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

    private static void frameHeader(DataOutputStream out, int length, int type) throws IOException {
        out.writeByte(length >>> 16);
        out.writeShort(length & 0xffff);
        out.writeByte(type);
        out.writeByte(0); // flags
        out.writeInt(0); // stream 0
    }

    private static int readGoAway(DataInputStream in) throws IOException {
        try {
            while (readFrame(in) != GOAWAY) {
                // the request's body
            }
            in.readInt(); // the last stream id
            return in.readInt();
        } catch (EOFException closedFirst) {
            return NO_GOAWAY;
        }
    }

    /** Reads one frame; its type. A GOAWAY's payload is left to read. */
    private static int readFrame(DataInputStream in) throws IOException {
        int length = (in.readUnsignedByte() << 16) | in.readUnsignedShort();
        int type = in.readUnsignedByte();
        in.readUnsignedByte(); // flags
        in.readInt(); // stream
        if (type != GOAWAY) {
            in.readFully(new byte[length]);
        }
        return type;
    }
}
