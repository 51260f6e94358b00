package io.h2bench.client.h3;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class CoalescedPacketsTest {

    @Test
    void shouldFindTheOneRttPacketWhenItFollowsAHandshakePacket() {
        ByteBuf datagram = Unpooled.buffer();
        longHeader(datagram, 0xe0, 461); // Handshake (type 2), 461 bytes of packet number and payload
        int oneRtt = datagram.writerIndex();
        datagram.writeByte(0x40).writeZero(66); // a short header to the end

        assertThat(CoalescedPackets.oneRttOffset(datagram)).isEqualTo(oneRtt);
    }

    @Test
    void shouldSkipAnInitialsTokenWhenTheInitialComesFirst() {
        ByteBuf datagram = Unpooled.buffer();
        datagram.writeByte(0xc0).writeInt(1).writeByte(8).writeZero(8).writeByte(8).writeZero(8);
        datagram.writeByte(3).writeZero(3); // a 3-byte token
        datagram.writeShort(0x4000 | 100).writeZero(100);
        longHeader(datagram, 0xe0, 70);
        int oneRtt = datagram.writerIndex();
        datagram.writeByte(0x41).writeZero(30);

        assertThat(CoalescedPackets.oneRttOffset(datagram)).isEqualTo(oneRtt);
    }

    @Test
    void shouldFindNoneWhenTheDatagramIsOnlyLongHeadersOrOnlyAShortOne() {
        ByteBuf handshakeOnly = Unpooled.buffer();
        longHeader(handshakeOnly, 0xe0, 200);
        ByteBuf shortOnly = Unpooled.buffer().writeByte(0x40).writeZero(50);
        ByteBuf truncated = Unpooled.buffer().writeByte(0xe0).writeInt(1).writeByte(8);

        assertThat(CoalescedPackets.oneRttOffset(handshakeOnly)).isEqualTo(-1);
        assertThat(CoalescedPackets.oneRttOffset(shortOnly)).isEqualTo(-1);
        assertThat(CoalescedPackets.oneRttOffset(truncated)).isEqualTo(-1);
    }

    /** A long-header packet of {@code first}'s type with 8-byte connection IDs and a two-byte Length. */
    private static void longHeader(ByteBuf datagram, int first, int length) {
        datagram.writeByte(first).writeInt(1).writeByte(8).writeZero(8).writeByte(8).writeZero(8);
        datagram.writeShort(0x4000 | length).writeZero(length);
    }
}
