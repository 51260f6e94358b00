/**
 * Network emulation: the round-trip time, bandwidth and loss of a
 * {@link io.h2bench.server.netem.LinkProfile}, by one of two engines. Here, the byte proxy
 * ({@link io.h2bench.server.netem.LatencyProxy}): a user-space TCP proxy that needs no privilege
 * and models TCP (see "Not emulated" below). In {@code io.h2bench.server.netem.kernel}, the kernel
 * link: IP packets between two real TCP stacks, the server's in its own network namespace, which
 * needs root or a user namespace. Pure JDK (plus JNA there); nothing here knows Jetty, JMeter or HTTP.
 *
 * <h2>Semantics</h2>
 * <ul>
 * <li><b>Where.</b> The proxy relays the TCP byte stream, below TLS: TLS records, the TLS handshake,
 *     HTTP/1.1 and HTTP/2 frames all pay the emulated link exactly as they would a real one.
 *     "Down" is target to client (the responses), "up" is client to target (the requests).</li>
 * <li><b>Delay.</b> {@code rtt} is added to every round trip, half in each direction: a byte read
 *     from one side at time t is written to the other side no earlier than t + rtt/2. Bytes keep
 *     their order in each direction.</li>
 * <li><b>Bandwidth.</b> Each direction is one serialising link shared by all connections of the
 *     proxy (one proxy per listener), as netem shapes an interface and DevTools a tab: a segment
 *     occupies the link for size x 8 / rate seconds, then travels for rtt/2. Connections with data
 *     waiting take turns segment by segment (fair queueing), so six HTTP/1.1 connections and one
 *     HTTP/2 connection get the same total rate. Departure times are computed, not observed, so a
 *     late timer thread does not slow the link down.</li>
 * <li><b>Loss.</b> TCP's effect as the application sees it. The stream is cut into segments of at
 *     most 1,460 bytes (the Ethernet MSS; a short write is a short segment, as on a socket with
 *     Nagle off). Each data segment is lost with probability {@code loss}, drawn from a random
 *     generator seeded by {@code seed}, the connection's number and the direction, so a run with
 *     the same seed and traffic loses the same segments. A lost segment arrives late:
 *     <ul>
 *     <li>fast retransmit: if a later segment of the same connection and direction follows it, the
 *         retransmission arrives one RTT after that later segment (its duplicate ACK goes back,
 *         the retransmission comes forward);</li>
 *     <li>retransmission timeout: if nothing follows (the last segment of a request or response),
 *         it arrives RTT + 200 ms late: Linux's RTO on a steady path, srtt + max(4 rttvar,
 *         tcp_rto_min = 200 ms).</li>
 *     </ul>
 *     Every byte behind a lost segment on that connection waits for it (head-of-line blocking);
 *     other connections are not held up. That is why loss hurts one HTTP/2 connection differently
 *     from six HTTP/1.1 connections.</li>
 * <li><b>Connection set-up.</b> The kernel completes the TCP handshake of the proxy's listening
 *     socket at once; user space cannot delay a SYN-ACK. The proxy therefore charges the handshake
 *     round trip to the first bytes instead, as if the connection had been opened at accept time:
 *     the client's bytes are treated as sent no earlier than accept + rtt (when its SYN-ACK would
 *     have come back), the server's no earlier than accept + 1.5 rtt (when the last ACK would have
 *     reached it). The time to the first response byte is therefore as on a real link, but a
 *     client's TCP connect time (JMeter's {@code Connect}) shows about 0 instead of one RTT; the
 *     missing RTT appears in the TLS handshake or, on cleartext, in the time to first byte
 *     ({@code Latency}). Totals (elapsed time) are unaffected.</li>
 * <li><b>Close.</b> A FIN (half-close) travels like data, behind the bytes sent before it, and
 *     shuts down the output towards the other side; the proxy closes both sockets once both
 *     directions have ended. A reset (or a failed read) travels behind the data before it and then
 *     resets both sides; a failed write, or a target that refuses the connection, resets the
 *     client at once.</li>
 * </ul>
 *
 * <h2>Not emulated</h2>
 * Congestion control (no slow start, no window halving after a loss; the loopback TCP under the
 * proxy never loses anything), retransmissions do not take link capacity a second time, Linux's
 * tail-loss probe, jitter and reordering. Each direction buffers at most 4 MiB per connection,
 * like a TCP window: beyond that the proxy stops reading and the sender's kernel pushes back.
 *
 * <h2>Cost</h2>
 * Two threads per proxy, whatever the number of connections: one owns a selector for the sockets
 * and a priority queue of deadlines (System.nanoTime); the other, the "waker", parks until the
 * earliest deadline with nanosecond resolution and wakes the selector, because epoll can only wait
 * whole milliseconds. No polling: an idle proxy uses no CPU.
 */
package io.h2bench.server.netem;
