package io.h2bench.server.netem.kernel;

/**
 * The names and addresses of link number {@code index}: device {@code h2b<index>} on both sides and
 * a /30-sized pair from the benchmarking range 198.18.0.0/15 (RFC 2544), which no real network
 * routes, so two servers on one machine (CI and a developer's) never meet.
 */
record LinkAddresses(int index) {

    /** 198.18.0.0/15 holds 32768 pairs; a few hundred servers at once is plenty. */
    static final int MAX_LINKS = 256;

    LinkAddresses {
        if (index < 0 || index >= MAX_LINKS) {
            throw new IllegalArgumentException("link index out of range: " + index);
        }
    }

    String device() {
        return "h2b" + index;
    }

    /** The client side's address, in the host's namespace. */
    String clientAddress() {
        return address(1);
    }

    /** The server side's address, in the link's namespace. */
    String serverAddress() {
        return address(2);
    }

    private String address(int host) {
        int offset = index * 4 + host;
        return "198." + (18 + (offset >> 16)) + "." + ((offset >> 8) & 0xff) + "." + (offset & 0xff);
    }
}
