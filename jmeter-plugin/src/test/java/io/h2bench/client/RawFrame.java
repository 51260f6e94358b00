package io.h2bench.client;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** One HTTP/2 frame as a raw-socket test server reads or writes it (RFC 9113 section 4.1). */
record RawFrame(int type, int streamId, byte[] payload) {

    static final int PREFACE_BYTES = 24;
    static final int HEADERS = 0x1;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;

    static RawFrame read(DataInputStream in) throws IOException {
        int length = (in.readUnsignedByte() << 16) | in.readUnsignedShort();
        int type = in.readUnsignedByte();
        in.readUnsignedByte(); // flags
        int streamId = in.readInt() & 0x7fff_ffff;
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new RawFrame(type, streamId, payload);
    }

    /** Writes a frame header with no flags on stream 0; the payload follows. */
    static void writeHeader(DataOutputStream out, int length, int type) throws IOException {
        out.writeByte(length >>> 16);
        out.writeShort(length & 0xffff);
        out.writeByte(type);
        out.writeByte(0);
        out.writeInt(0);
    }

    /** The payload's 32-bit big-endian integer at {@code offset}. */
    int intAt(int offset) {
        return ((payload[offset] & 0xff) << 24) | ((payload[offset + 1] & 0xff) << 16)
                | ((payload[offset + 2] & 0xff) << 8) | (payload[offset + 3] & 0xff);
    }
}
