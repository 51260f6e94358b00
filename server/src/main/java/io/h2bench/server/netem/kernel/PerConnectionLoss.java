package io.h2bench.server.netem.kernel;

import com.sun.jna.Pointer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link LossPattern#PER_CONNECTION}: a data packet is lost by a hash of the seed and its place in
 * its connection, so every connection that sends the same packets loses the same ones. The place is
 * the packet's index among its flow's new data since the SYN (a UDP flow: among its datagrams); a
 * TCP retransmission's place is its index among the flow's retransmissions, so it can be lost too,
 * as on any link, and the same way on each connection. Packets without data (SYN, pure ACKs, FIN)
 * pass.
 */
final class PerConnectionLoss implements PacketLoss {

    /** Flows remembered; the least recently seen is forgotten beyond this. */
    private static final int MAX_FLOWS = 4096;

    private final double probability;
    private final long seed;
    private final byte[] header = new byte[PacketHeader.MAX_BYTES];
    private final Map<PacketHeader.Flow, FlowState> flows = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PacketHeader.Flow, FlowState> eldest) {
            return size() > MAX_FLOWS;
        }
    };
    private long lost;

    PerConnectionLoss(double probability, long seed) {
        this.probability = probability;
        this.seed = seed;
    }

    @Override
    public boolean drops(Pointer packet, int length) {
        int read = Math.min(length, header.length);
        packet.read(0, header, 0, read);
        return drops(PacketHeader.parse(header, read));
    }

    boolean drops(PacketHeader packet) {
        if (packet == null) {
            return false;
        }
        if (packet.syn()) {
            flows.put(packet.flow(), new FlowState(packet.sequence() + 1));
            return false;
        }
        if (packet.payload() <= 0) {
            return false;
        }
        FlowState flow = flows.computeIfAbsent(packet.flow(), f -> new FlowState(packet.sequence()));
        boolean drop = isLost(packet.tcp() ? flow.placeOfSegment(packet.sequence(), packet.payload()) : flow.nextPacket());
        if (drop) {
            lost++;
        }
        return drop;
    }

    @Override
    public long lostPackets() {
        return lost;
    }

    private boolean isLost(long place) {
        long mixed = mix(mix(seed) + place * 0x9E3779B97F4A7C15L);
        return (mixed >>> 11) * 0x1.0p-53 < probability;
    }

    /** A 64-bit finaliser (the SplitMix64 one): every input bit changes about half the output bits. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Where one direction of a connection is: how many packets of new data it sent, and how many
     * again. Counting packets rather than bytes keeps the place when the sender cuts a segment short
     * (it does whenever the application's writes lag), which would shift every later byte offset.
     */
    private static final class FlowState {
        /** Retransmissions count from here, apart from new data. */
        private static final long RESENT = 1L << 62;

        private long next;
        private long packets;
        private long resent;

        FlowState(long firstSequence) {
            this.next = firstSequence;
        }

        /** The place of a TCP segment: its index among new data, or among the flow's retransmissions. */
        long placeOfSegment(long sequence, int payload) {
            if ((int) (sequence - next) >= 0) {
                next = (sequence + payload) & 0xFFFF_FFFFL;
                return packets++;
            }
            return RESENT + resent++;
        }

        long nextPacket() {
            return packets++;
        }
    }
}
