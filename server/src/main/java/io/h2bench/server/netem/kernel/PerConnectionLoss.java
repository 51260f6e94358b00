package io.h2bench.server.netem.kernel;

import com.sun.jna.Pointer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link LossPattern#PER_CONNECTION}: a data packet is lost by a hash of the seed and its place in
 * its connection, so every connection that sends the same packets loses the same ones. The place is
 * the packet's index among its flow's new data since the SYN (a UDP flow: among its datagrams); a
 * TCP retransmission's place is its index among the flow's retransmissions, so it can be lost too,
 * as on any link, and the same way on each connection. Packets without data (SYN, pure ACKs, FIN)
 * pass. With {@link LossPattern#NTH_CONNECTION} the hash also takes the connection's number among
 * those to its server's port and protocol, counted as this direction first sees them.
 */
final class PerConnectionLoss implements PacketLoss {

    /** Whose connections share a pattern. */
    enum Patterns {
        /** Every connection: one pattern. */
        ONE,
        /** The n-th connection to each server port, the server's port the packet's source (the down direction). */
        BY_SOURCE_PORT,
        /** The same, the server's port the packet's destination (the up direction). */
        BY_DESTINATION_PORT
    }

    /** Flows remembered; the least recently seen is forgotten beyond this. */
    private static final int MAX_FLOWS = 4096;

    private final double probability;
    private final long seed;
    private final Patterns patterns;
    /** Connections seen so far per server port and protocol, for {@link Patterns#BY_SOURCE_PORT} and its twin. */
    private final Map<Integer, Long> connections = new HashMap<>();
    private final byte[] header = new byte[PacketHeader.MAX_BYTES];
    private final Map<PacketHeader.Flow, FlowState> flows = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PacketHeader.Flow, FlowState> eldest) {
            return size() > MAX_FLOWS;
        }
    };
    private long lost;

    PerConnectionLoss(double probability, long seed, Patterns patterns) {
        this.probability = probability;
        this.seed = seed;
        this.patterns = patterns;
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
            // A resent SYN is the same connection: it keeps its pattern (its number among the port's)
            FlowState known = flows.get(packet.flow());
            if (known == null || !known.startsAt(packet.sequence() + 1)) {
                flows.put(packet.flow(), new FlowState(packet.sequence() + 1, patternOf(packet.flow())));
            }
            return false;
        }
        if (packet.payload() <= 0) {
            return false;
        }
        FlowState flow = flows.computeIfAbsent(packet.flow(), f -> new FlowState(packet.sequence(), patternOf(f)));
        long place = packet.tcp() ? flow.placeOfSegment(packet.sequence(), packet.payload()) : flow.nextPacket();
        boolean drop = isLost(flow.pattern, place);
        if (drop) {
            lost++;
        }
        return drop;
    }

    @Override
    public long lostPackets() {
        return lost;
    }

    /** The pattern a new flow takes: 0 for every flow, or its number among its server port's flows. */
    private long patternOf(PacketHeader.Flow flow) {
        int serverPort = switch (patterns) {
            case ONE -> -1;
            case BY_SOURCE_PORT -> flow.ports() >>> 16;
            case BY_DESTINATION_PORT -> flow.ports() & 0xFFFF;
        };
        return serverPort < 0 ? 0 : connections.merge(flow.protocol() << 16 | serverPort, 1L, Long::sum) - 1;
    }

    private boolean isLost(long pattern, long place) {
        long mixed = mix(mix(seed + pattern * 0xD1B54A32D192ED03L) + place * 0x9E3779B97F4A7C15L);
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

        private final long pattern;
        private long next;
        private long packets;
        private long resent;

        FlowState(long firstSequence, long pattern) {
            this.next = firstSequence;
            this.pattern = pattern;
        }

        /** True while no data has passed since a SYN that said {@code firstSequence}. */
        boolean startsAt(long firstSequence) {
            return packets == 0 && resent == 0 && next == firstSequence;
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
