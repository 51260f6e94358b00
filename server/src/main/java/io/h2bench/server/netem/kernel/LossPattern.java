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
    PER_CONNECTION;

    /** Reads {@code random} or {@code per-connection}. */
    public static LossPattern parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("--loss-pattern must be random or per-connection, not '" + value + "'",
                    unknown);
        }
    }

    /** As the command line spells it. */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
