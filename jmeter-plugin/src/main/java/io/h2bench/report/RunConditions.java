package io.h2bench.report;

/**
 * What a comparison was measured under, for its heading: the emulated network as the server's
 * banner names it, and whether each user kept its connections across loads ("warm") or opened
 * new ones for every load ("cold"). Either may be empty when a JTL comes without them.
 *
 * @param explanation link to the page that explains why real TCP differs from DevTools throttling
 */
public record RunConditions(String network, String connections, String explanation) {

    /** The site's section, for a report read beside the site. */
    public static final String SITE_EXPLANATION = "seed-000.html#Real_TCP_against_DevTools_throttling";

    public static RunConditions unknown() {
        return new RunConditions("", "", SITE_EXPLANATION);
    }

    /** True when bin/compare ran without network emulation ({@code --latency 0}), as the server's banner says. */
    public boolean plainLoopback() {
        return network.contains("plain loopback");
    }

    /** One line for a heading, e.g. "rtt 100 ms; engine: kernel · warm connections (kept across loads)". */
    public String heading() {
        String network = this.network.isBlank() ? "network not recorded" : this.network;
        return switch (connections) {
            case "" -> network;
            case "warm" -> network + " · warm connections (each user keeps its connections across the loads)";
            case "cold" -> network + " · cold connections (new connections for every load)";
            default -> network + " · connections: " + connections;
        };
    }
}
