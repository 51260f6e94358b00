package io.h2bench.client.h3;

import io.netty.buffer.ByteBuf;

/**
 * Where a datagram's 1-RTT packet starts behind the long-header packets coalesced before it (RFC
 * 9000 12.2): a long header's Length field says where the next packet begins, and a short header
 * (1-RTT) runs to the datagram's end.
 */
final class CoalescedPackets {

    private static final int LONG_HEADER = 0x80;
    private static final int TYPE_INITIAL = 0;
    private static final int TYPE_RETRY = 3;

    private CoalescedPackets() {
    }

    /** The offset of the 1-RTT packet in {@code datagram} (from its reader index), or -1 when there is none or it stands alone. */
    static int oneRttOffset(ByteBuf datagram) {
        int start = datagram.readerIndex();
        int end = datagram.writerIndex();
        int at = start;
        while (at < end) {
            int first = datagram.getUnsignedByte(at);
            if ((first & LONG_HEADER) == 0) {
                return at == start ? -1 : at - start;
            }
            int type = (first & 0x30) >> 4;
            if (type == TYPE_RETRY || at + 6 > end) {
                return -1;
            }
            int cursor = at + 5;
            cursor += 1 + datagram.getUnsignedByte(cursor); // destination connection ID
            if (cursor >= end) {
                return -1;
            }
            cursor += 1 + datagram.getUnsignedByte(cursor); // source connection ID
            if (type == TYPE_INITIAL) {
                long token = varint(datagram, cursor, end);
                if (token < 0) {
                    return -1;
                }
                cursor += varintLength(datagram, cursor) + (int) token;
            }
            long length = varint(datagram, cursor, end);
            if (length < 0) {
                return -1;
            }
            at = cursor + varintLength(datagram, cursor) + (int) length;
        }
        return -1;
    }

    /** A QUIC variable-length integer at {@code at}, or -1 when the datagram ends inside it. */
    private static long varint(ByteBuf buffer, int at, int end) {
        if (at >= end) {
            return -1;
        }
        int length = varintLength(buffer, at);
        if (at + length > end) {
            return -1;
        }
        long value = buffer.getUnsignedByte(at) & 0x3f;
        for (int i = 1; i < length; i++) {
            value = (value << 8) | buffer.getUnsignedByte(at + i);
        }
        return value;
    }

    private static int varintLength(ByteBuf buffer, int at) {
        return 1 << (buffer.getUnsignedByte(at) >> 6);
    }
}
