package io.h2bench.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A clear-text HTTP/2 client that writes frames byte by byte as an attacker would: no flow control,
 * no stream bookkeeping, header blocks hand-encoded (HPACK literals without indexing, RFC 7541 6.2.2).
 */
final class RawH2 implements AutoCloseable {

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int PUSH_PROMISE = 0x5;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;
    static final int END_STREAM = 0x1;
    static final int END_HEADERS = 0x4;
    static final int CANCEL = 0x8;

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    private RawH2(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    /** Connects, sends the preface and an empty SETTINGS frame. */
    static RawH2 connect(int port) throws IOException {
        return over(new Socket("127.0.0.1", port));
    }

    /** Sends the preface and an empty SETTINGS frame, in one write, on a connection made elsewhere (TLS with ALPN h2). */
    static RawH2 over(Socket socket) throws IOException {
        RawH2 client = new RawH2(socket);
        ByteArrayOutputStream preface = new ByteArrayOutputStream();
        preface.write(PREFACE);
        preface.write(new byte[] {0, 0, 0, 0x4, 0, 0, 0, 0, 0});
        client.out.write(preface.toByteArray());
        client.out.flush();
        return client;
    }

    /** Connects with {@code SETTINGS_INITIAL_WINDOW_SIZE} set: at 0 the server may send no DATA on any stream. */
    static RawH2 connect(int port, int initialWindowSize) throws IOException {
        RawH2 client = new RawH2(new Socket("127.0.0.1", port));
        client.out.write(PREFACE);
        int w = initialWindowSize;
        client.frame(0x4, 0, 0, new byte[] {0, 0x4, (byte) (w >>> 24), (byte) (w >>> 16), (byte) (w >>> 8), (byte) w});
        return client;
    }

    /** A GET header block for a path, small enough for one frame. */
    static byte[] get(String path) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82); // :method GET, static table 2
        block.write(0x86); // :scheme http, static table 6
        literal(block, 4, path); // :path
        literal(block, 1, "localhost"); // :authority
        return block.toByteArray();
    }

    /** A GET header block with one more field {@code name: value}. */
    static byte[] get(String path, String name, String value) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.writeBytes(get(path));
        block.write(0x00);
        string(block, name.getBytes(StandardCharsets.US_ASCII));
        string(block, value.getBytes(StandardCharsets.US_ASCII));
        return block.toByteArray();
    }

    /** A header field {@code name: value} of any size, as a literal with a literal name. */
    static byte[] field(String name, int valueLength) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x00);
        string(block, name.getBytes(StandardCharsets.US_ASCII));
        string(block, "a".repeat(valueLength).getBytes(StandardCharsets.US_ASCII));
        return block.toByteArray();
    }

    void frame(int type, int flags, int streamId, byte[] payload) throws IOException {
        byte[] header = {
            (byte) (payload.length >>> 16), (byte) (payload.length >>> 8), (byte) payload.length,
            (byte) type, (byte) flags,
            (byte) (streamId >>> 24), (byte) (streamId >>> 16), (byte) (streamId >>> 8), (byte) streamId};
        out.write(header);
        out.write(payload);
    }

    void reset(int streamId, int error) throws IOException {
        frame(RST_STREAM, 0, streamId, new byte[] {(byte) (error >>> 24), (byte) (error >>> 16), (byte) (error >>> 8), (byte) error});
    }

    void windowUpdate(int streamId, int increment) throws IOException {
        frame(WINDOW_UPDATE, 0, streamId, new byte[] {
            (byte) (increment >>> 24), (byte) (increment >>> 16), (byte) (increment >>> 8), (byte) increment});
    }

    /** The TCP connection, for a test that holds it without speaking HTTP/2 any more. */
    Socket socket() {
        return socket;
    }

    void flush() throws IOException {
        out.flush();
    }

    /** Reads frames until {@code count} of {@code type} came; false if the server ended first or {@code within} passed. */
    boolean awaitFrames(int type, int count, Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        int seen = 0;
        try {
            while (seen < count && System.nanoTime() < deadline) {
                if (next(deadline).type == type) {
                    seen++;
                }
            }
        } catch (EOFException | SocketTimeoutException e) {
            return false;
        }
        return seen == count;
    }

    /** Reads frames until one ends {@code streamId} (END_STREAM set); false if the server ended first or {@code within} passed. */
    boolean awaitEndOfStream(int streamId, Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                Frame frame = next(deadline);
                if (frame.streamId == streamId && (frame.type == DATA || frame.type == HEADERS) && (frame.flags & END_STREAM) != 0) {
                    return true;
                }
            }
        } catch (EOFException | SocketTimeoutException e) {
            return false;
        }
        return false;
    }

    /**
     * Reads frames until the server ends the exchange: "GOAWAY code", "RST_STREAM code" (when
     * {@code resetCounts} is set), "closed" at end of stream, or "nothing" when {@code within} passes.
     */
    String awaitEnd(Duration within, boolean resetCounts) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                Frame frame = next(deadline);
                if (frame.type == GOAWAY) {
                    return "GOAWAY " + errorCode(frame.payload, 4);
                }
                if (frame.type == RST_STREAM && resetCounts) {
                    return "RST_STREAM " + errorCode(frame.payload, 0);
                }
            }
            return "nothing";
        } catch (EOFException e) {
            return "closed";
        } catch (SocketTimeoutException e) {
            return "nothing";
        } catch (IOException e) {
            return "closed (" + e.getMessage() + ")";
        }
    }

    private record Frame(int type, int flags, int streamId, byte[] payload) {
    }

    /** The next frame, waiting at most until {@code deadline} (a {@link System#nanoTime()}). */
    private Frame next(long deadline) throws IOException {
        socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        int length = in.readUnsignedShort() << 8 | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int streamId = in.readInt() & 0x7fffffff;
        return new Frame(type, flags, streamId, in.readNBytes(length));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private static int errorCode(byte[] payload, int offset) {
        return (payload[offset] & 0xff) << 24 | (payload[offset + 1] & 0xff) << 16 | (payload[offset + 2] & 0xff) << 8 | payload[offset + 3] & 0xff;
    }

    private static void literal(ByteArrayOutputStream block, int nameIndex, String value) {
        block.write(nameIndex); // literal without indexing, indexed name (4-bit prefix, index < 15)
        string(block, value.getBytes(StandardCharsets.US_ASCII));
    }

    private static void string(ByteArrayOutputStream block, byte[] bytes) {
        integer(block, bytes.length, 7, 0x00);
        block.writeBytes(bytes);
    }

    private static void integer(ByteArrayOutputStream block, int value, int prefixBits, int firstByteFlags) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            block.write(firstByteFlags | value);
            return;
        }
        block.write(firstByteFlags | max);
        for (value -= max; value >= 128; value >>>= 7) {
            block.write(value & 0x7f | 0x80);
        }
        block.write(value);
    }
}
