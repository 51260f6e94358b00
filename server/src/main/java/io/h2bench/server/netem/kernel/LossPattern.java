package io.h2bench.server.netem.kernel;

import java.util.Locale;

/** Which packets the kernel link's loss takes. */
public enum LossPattern {
    /**
     * Every packet, ACKs and handshakes included, is lost with the loss probability, drawn anew each
     * time: what {@code tc netem loss} does. Two clients on the same link see different losses.
     */
    RANDOM,
    /**
     * Only packets that carry data are lost, and every connection loses the same ones: whether a
     * packet is lost depends on the seed, its direction and where it sits in its connection (a TCP
     * segment's byte offset and how often it was sent before; a UDP datagram's index in its flow).
     * Two clients that send the same bytes see the same losses, so their times can be compared
     * sample by sample; the share lost is still the loss probability.
     */
    PER_CONNECTION,
    /**
     * As {@link #PER_CONNECTION}, but the pattern is the connection's number among those to its
     * server's port: every server's n-th connection loses the same packets, its next connection
     * others. Servers that take turns over the same requests are compared over as many loss
     * patterns as connections, each pattern met by every server once.
     */
    NTH_CONNECTION;

    /** Reads {@code random}, {@code per-connection} or {@code nth-connection}. */
    public static LossPattern parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException(
                    "--loss-pattern must be random, per-connection or nth-connection, not '" + value + "'",
                    unknown);
        }
    }

    /** As the command line spells it. */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
