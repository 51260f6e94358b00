package io.h2bench.server.netem.kernel;

/**
 * The few fields of a raw IP packet's TCP or UDP header that the loss needs: its flow, its
 * sequence number and flags, and how many bytes of data it carries. IPv4 and IPv6 without
 * extension headers; anything else (ICMP, fragments, other protocols) is not parsed.
 *
 * @param flow     the 5-tuple, in this packet's direction
 * @param tcp      TCP, else UDP
 * @param sequence the TCP sequence number (unsigned 32 bits); 0 for UDP
 * @param flags    the TCP flags byte; 0 for UDP
 * @param payload  bytes of data after the TCP or UDP header
 */
record PacketHeader(Flow flow, boolean tcp, long sequence, int flags, int payload) {

    /** Enough for an IPv4 header with options, or IPv6's, and the first 20 bytes of TCP. */
    static final int MAX_BYTES = 80;
    static final int SYN = 0x02;

    private static final int TCP = 6;
    private static final int UDP = 17;

    /**
     * Identifies a connection's direction: both addresses (IPv4 in the low words), both ports and
     * the protocol.
     */
    record Flow(long sourceHigh, long sourceLow, long destinationHigh, long destinationLow, int ports, int protocol) {
    }

    boolean syn() {
        return (flags & SYN) != 0;
    }

    /** The header of the packet whose first {@code read} bytes are in {@code bytes}, or null. */
    static PacketHeader parse(byte[] bytes, int read) {
        if (read < 20) {
            return null;
        }
        int version = (bytes[0] & 0xff) >>> 4;
        if (version == 4) {
            int headerLength = (bytes[0] & 0x0f) * 4;
            boolean fragment = (u16(bytes, 6) & 0x3fff) != 0;
            if (fragment) {
                return null;
            }
            return transport(bytes, read, headerLength, bytes[9] & 0xff, u16(bytes, 2) - headerLength,
                    0, u32(bytes, 12), 0, u32(bytes, 16));
        }
        if (version == 6 && read >= 40) {
            return transport(bytes, read, 40, bytes[6] & 0xff, u16(bytes, 4),
                    u64(bytes, 8), u64(bytes, 16), u64(bytes, 24), u64(bytes, 32));
        }
        return null;
    }

    private static PacketHeader transport(byte[] bytes, int read, int at, int protocol, int ipPayload,
                                          long sourceHigh, long sourceLow, long destinationHigh, long destinationLow) {
        if ((protocol != TCP && protocol != UDP) || read < at + (protocol == TCP ? 20 : 8)) {
            return null;
        }
        Flow flow = new Flow(sourceHigh, sourceLow, destinationHigh, destinationLow, (int) u32(bytes, at), protocol);
        if (protocol == UDP) {
            return new PacketHeader(flow, false, 0, 0, ipPayload - 8);
        }
        int dataOffset = ((bytes[at + 12] & 0xff) >>> 4) * 4;
        return new PacketHeader(flow, true, u32(bytes, at + 4), bytes[at + 13] & 0xff, ipPayload - dataOffset);
    }

    private static int u16(byte[] bytes, int at) {
        return (bytes[at] & 0xff) << 8 | bytes[at + 1] & 0xff;
    }

    private static long u32(byte[] bytes, int at) {
        return (long) u16(bytes, at) << 16 | u16(bytes, at + 2);
    }

    private static long u64(byte[] bytes, int at) {
        return u32(bytes, at) << 32 | u32(bytes, at + 4);
    }
}
