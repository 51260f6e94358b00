package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Memory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which packets each loss pattern takes, on packets built here: runs anywhere. */
class PacketLossTest {

    private static final int SEGMENT = 1448;
    private static final int SEGMENTS = 20_000;

    @Test
    void shouldLoseAboutTheGivenShareAndTheSameOnesWhenTheSeedIsTheSame() {
        RandomLoss first = new RandomLoss(0.02, 7);
        RandomLoss second = new RandomLoss(0.02, 7);
        for (int i = 0; i < 100_000; i++) {
            assertThat(first.nextIsLost()).isEqualTo(second.nextIsLost());
        }

        assertThat(first.lostPackets()).isBetween(1_800L, 2_200L);
    }

    @Test
    void shouldLoseTheSameSegmentsOnEveryConnectionWhateverItsPortsAndSequenceNumbers() {
        PacketLoss loss = PacketLoss.of(LossPattern.PER_CONNECTION, 0.02, 1, true);

        List<Integer> first = lostSegments(loss, 443, 40_000, 1_000_000L);
        List<Integer> second = lostSegments(loss, 443, 40_001, 4_294_000_000L);

        assertThat(first).isEqualTo(second);
        assertThat(first.size()).isBetween(SEGMENTS / 50 * 8 / 10, SEGMENTS / 50 * 12 / 10);
    }

    @Test
    void shouldLoseOtherSegmentsInTheOtherDirectionOrWithAnotherSeed() {
        List<Integer> down = lostSegments(PacketLoss.of(LossPattern.PER_CONNECTION, 0.02, 1, true), 443, 40_000, 0);
        List<Integer> up = lostSegments(PacketLoss.of(LossPattern.PER_CONNECTION, 0.02, 1, false), 443, 40_000, 0);
        List<Integer> reseeded = lostSegments(PacketLoss.of(LossPattern.PER_CONNECTION, 0.02, 2, true), 443, 40_000, 0);

        assertThat(down).isNotEqualTo(up).isNotEqualTo(reseeded);
    }

    @Test
    void shouldNeverLosePacketsWithoutData() {
        PacketLoss loss = PacketLoss.of(LossPattern.PER_CONNECTION, 0.4, 1, true);
        for (int i = 0; i < 1_000; i++) {
            assertThat(loss.drops(tcp(443, 40_000, i, 0x10, 0), 40)).isFalse();
        }
    }

    @Test
    void shouldLoseARetransmissionAsOftenAsNewDataAndTheSameOnesEachTime() {
        PerConnectionLoss first = new PerConnectionLoss(0.3, 5, PerConnectionLoss.Patterns.ONE);
        PerConnectionLoss second = new PerConnectionLoss(0.3, 5, PerConnectionLoss.Patterns.ONE);
        int lostResendings = 0;
        for (PerConnectionLoss loss : List.of(first, second)) {
            loss.drops(header(tcp(443, 40_000, 0, PacketHeader.SYN, 0)));
            loss.drops(header(tcp(443, 40_000, 1, 0x18, SEGMENT)));
        }
        for (int resent = 0; resent < 1_000; resent++) {
            boolean lost = first.drops(header(tcp(443, 40_000, 1, 0x18, SEGMENT)));
            assertThat(second.drops(header(tcp(443, 40_000, 1, 0x18, SEGMENT)))).isEqualTo(lost);
            lostResendings += lost ? 1 : 0;
        }

        assertThat(lostResendings).isBetween(240, 360);
    }

    @Test
    void shouldLoseTheSameDatagramsOnEveryQuicFlow() {
        PacketLoss loss = PacketLoss.of(LossPattern.PER_CONNECTION, 0.05, 1, true);
        List<Integer> first = new ArrayList<>();
        List<Integer> second = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            if (loss.drops(udp(443, 50_000, 1200), 1248)) {
                first.add(i);
            }
        }
        for (int i = 0; i < 2_000; i++) {
            if (loss.drops(udp(443, 50_001, 1200), 1248)) {
                second.add(i);
            }
        }

        assertThat(first).isEqualTo(second).hasSizeBetween(70, 130);
    }

    @Test
    void shouldLoseTheSameDatagramsOnTheNthConnectionOfEveryServerPortAndOthersOnTheNext() {
        PacketLoss down = PacketLoss.of(LossPattern.NTH_CONNECTION, 0.05, 1, true);
        PacketLoss up = PacketLoss.of(LossPattern.NTH_CONNECTION, 0.05, 1, false);

        List<Integer> firstTo443 = lostDatagrams(down, 443, 50_000);
        lostSegments(down, 443, 40_000, 0);
        List<Integer> secondTo443 = lostDatagrams(down, 443, 50_001);
        List<Integer> firstTo4433 = lostDatagrams(down, 4433, 50_002);
        List<Integer> secondTo4433 = lostDatagrams(down, 4433, 50_003);
        List<Integer> firstUpTo443 = lostDatagrams(up, 50_004, 443);
        List<Integer> secondUpTo443 = lostDatagrams(up, 50_005, 443);
        List<Integer> firstUpTo4433 = lostDatagrams(up, 50_006, 4433);

        assertThat(firstTo4433).isEqualTo(firstTo443).hasSizeBetween(70, 130);
        assertThat(secondTo4433).isEqualTo(secondTo443).isNotEqualTo(firstTo443).hasSizeBetween(70, 130);
        assertThat(firstUpTo4433).isEqualTo(firstUpTo443).isNotEqualTo(secondUpTo443).isNotEqualTo(firstTo443);
    }

    @Test
    void shouldCountAResentSynAsTheSameConnection() {
        PacketLoss once = PacketLoss.of(LossPattern.NTH_CONNECTION, 0.02, 1, true);
        PacketLoss twice = PacketLoss.of(LossPattern.NTH_CONNECTION, 0.02, 1, true);
        twice.drops(tcp(443, 40_000, 1_000, PacketHeader.SYN, 0), 40);

        lostSegments(once, 443, 40_000, 1_000);
        lostSegments(twice, 443, 40_000, 1_000);

        assertThat(lostSegments(twice, 443, 40_001, 7)).isEqualTo(lostSegments(once, 443, 40_001, 7));
    }

    @Test
    void shouldLoseOnTheFirstConnectionOfEachPortWhatPerConnectionLosesOnEvery() {
        PacketLoss numbered = PacketLoss.of(LossPattern.NTH_CONNECTION, 0.05, 3, true);
        PacketLoss same = PacketLoss.of(LossPattern.PER_CONNECTION, 0.05, 3, true);

        assertThat(lostDatagrams(numbered, 443, 50_000)).isEqualTo(lostDatagrams(same, 443, 50_000));
    }

    /** Indexes of the lost datagrams among a new UDP flow's first 2,000. */
    private static List<Integer> lostDatagrams(PacketLoss loss, int sourcePort, int destinationPort) {
        List<Integer> lost = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            if (loss.drops(udp(sourcePort, destinationPort, 1200), 1248)) {
                lost.add(i);
            }
        }
        return lost;
    }

    /** Indexes of the lost data segments of one connection, from its SYN on. */
    private static List<Integer> lostSegments(PacketLoss loss, int sourcePort, int destinationPort, long isn) {
        loss.drops(tcp(sourcePort, destinationPort, isn, PacketHeader.SYN, 0), 40);
        List<Integer> lost = new ArrayList<>();
        for (int i = 0; i < SEGMENTS; i++) {
            long sequence = (isn + 1 + (long) i * SEGMENT) & 0xFFFF_FFFFL;
            if (loss.drops(tcp(sourcePort, destinationPort, sequence, 0x18, SEGMENT), 40 + SEGMENT)) {
                lost.add(i);
            }
        }
        return lost;
    }

    private static PacketHeader header(Memory packet) {
        byte[] bytes = new byte[PacketHeader.MAX_BYTES];
        packet.read(0, bytes, 0, bytes.length);
        return PacketHeader.parse(bytes, bytes.length);
    }

    /** An IPv4 TCP packet from 198.18.0.2 to 198.18.0.1, header only; its length field counts the payload. */
    private static Memory tcp(int sourcePort, int destinationPort, long sequence, int flags, int payload) {
        ByteBuffer packet = ipv4(6, 20 + payload);
        packet.putShort((short) sourcePort).putShort((short) destinationPort).putInt((int) sequence).putInt(0);
        packet.put((byte) 0x50).put((byte) flags).putShort((short) 65535).putInt(0);
        return copy(packet);
    }

    private static Memory udp(int sourcePort, int destinationPort, int payload) {
        ByteBuffer packet = ipv4(17, 8 + payload);
        packet.putShort((short) sourcePort).putShort((short) destinationPort).putShort((short) (8 + payload)).putShort((short) 0);
        return copy(packet);
    }

    private static ByteBuffer ipv4(int protocol, int transportBytes) {
        ByteBuffer packet = ByteBuffer.allocate(PacketHeader.MAX_BYTES);
        packet.put((byte) 0x45).put((byte) 0).putShort((short) (20 + transportBytes)).putInt(0);
        packet.put((byte) 64).put((byte) protocol).putShort((short) 0);
        packet.put(new byte[] {(byte) 198, 18, 0, 2}).put(new byte[] {(byte) 198, 18, 0, 1});
        return packet;
    }

    private static Memory copy(ByteBuffer packet) {
        Memory memory = new Memory(PacketHeader.MAX_BYTES);
        memory.write(0, packet.array(), 0, PacketHeader.MAX_BYTES);
        return memory;
    }
}
