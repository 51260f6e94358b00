package io.h2bench.report;

/**
 * What a comparison was measured under, for its heading: the emulated network as the server's
 * banner names it, and whether each user kept its connections across loads ("warm") or opened
 * new ones for every load ("cold"). Either may be empty when a JTL comes without them.
 *
 * @param explanation link to the page that explains why real TCP differs from DevTools throttling
 * @param noH3        why the run has no h3 rows (the server's banner: no h3 listener behind the byte
 *                    proxy), empty when h3 was measured or not asked about
 */
public record RunConditions(String network, String connections, String explanation, String noH3) {

    /** The site's section, for a report read beside the site. */
    public static final String SITE_EXPLANATION = "seed-000.html#Real_TCP_against_DevTools_throttling";
    /** That section's anchor as the site (Doxia) and as the Markdown source (bin/compare's report) write it. */
    private static final String SITE_ANCHOR = "#Real_TCP_against_DevTools_throttling";
    private static final String SOURCE_ANCHOR = "#real-tcp-against-devtools-throttling";

    public RunConditions(String network, String connections, String explanation) {
        this(network, connections, explanation, "");
    }

    public static RunConditions unknown() {
        return new RunConditions("", "", SITE_EXPLANATION);
    }

    /**
     * The same page's section on h3 beside the TCP protocols, in the anchor style {@link #explanation}
     * uses; the page alone when its anchor is neither of the two.
     */
    public String h3Explanation() {
        if (explanation.endsWith(SITE_ANCHOR)) {
            return explanation.substring(0, explanation.length() - SITE_ANCHOR.length()) + "#h3_beside_the_TCP_protocols";
        }
        if (explanation.endsWith(SOURCE_ANCHOR)) {
            return explanation.substring(0, explanation.length() - SOURCE_ANCHOR.length()) + "#h3-beside-the-tcp-protocols";
        }
        int anchor = explanation.indexOf('#');
        return anchor < 0 ? explanation : explanation.substring(0, anchor);
    }

    /** True when bin/compare ran without network emulation ({@code --latency 0}), as the server's banner says. */
    public boolean plainLoopback() {
        return network.contains("plain loopback");
    }

    /** One line for a heading, e.g. "rtt 100 ms; engine: kernel · warm connections (kept across loads)". */
    public String heading() {
        String network = this.network.isBlank() ? "network not recorded" : this.network;
        String heading = switch (connections) {
            case "" -> network;
            case "warm" -> network + " · warm connections (each user keeps its connections across the loads)";
            case "cold" -> network + " · cold connections (new connections for every load)";
            default -> network + " · connections: " + connections;
        };
        return noH3.isBlank() ? heading : heading + " · no h3: " + noH3;
    }
}
