package io.h2bench.report;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    /** The benchmarks page's section on h2bench's h3 beside ngtcp2's and quic-go's servers, site and source. */
    private static final String SITE_H3_PEERS = "benchmarks.html#HTTP.2F3_against_independent_servers_.28issue_38.29";
    private static final String SOURCE_H3_PEERS = "benchmarks.md#http3-against-independent-servers-issue-38";
    /** The loss in the server's banner, e.g. "loss 1 % (seed 1)". */
    private static final Pattern LOSS = Pattern.compile("\\bloss (\\d+(?:\\.\\d+)?) %");

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

    /**
     * The benchmarks page's section on h3 against independent QUIC servers, beside the page
     * {@link #explanation} names (site or source); that page alone when it is neither.
     */
    public String h3PeersExplanation() {
        if (explanation.endsWith(SITE_ANCHOR) || explanation.endsWith(SOURCE_ANCHOR)) {
            String page = explanation.substring(0, explanation.indexOf('#'));
            String folder = page.substring(0, page.lastIndexOf('/') + 1);
            return folder + (explanation.endsWith(SITE_ANCHOR) ? SITE_H3_PEERS : SOURCE_H3_PEERS);
        }
        return h3Explanation();
    }

    /** True when the network as the banner names it drops packets (a loss above 0 %). */
    public boolean lossy() {
        Matcher loss = LOSS.matcher(network);
        return loss.find() && Double.parseDouble(loss.group(1)) > 0;
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
