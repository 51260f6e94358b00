/**
 * The kernel link engine: an emulated network between two real TCP stacks, at the IP packet level,
 * as mahimahi's delay, loss and link shells do it. Nothing here knows Jetty, JMeter or HTTP.
 *
 * <h2>Topology</h2>
 * <pre>
 *   host namespace (clients: JMeter, curl, a browser)      link namespace (anonymous, this JVM's)
 *   198.18.N.1 ── TUN h2bN ═══ relay (JVM) ═══ TUN h2bN ── 198.18.N.2  (the server's listeners)
 *         each direction (up: client to server, down: server to client):
 *         read ─ loss ─ drop-tail queue ─ serialiser at the rate ─ one-way delay ─ write
 * </pre>
 * <ul>
 * <li>{@link io.h2bench.server.netem.kernel.NetworkNamespace}: one thread {@code unshare}s itself
 *     into a new network namespace and opens there what must live there: the server-side TUN
 *     device and the listening sockets (accepted sockets stay in their listener's namespace). The
 *     namespace has no name on disk, so the kernel removes it, and both non-persistent TUN devices,
 *     when the JVM ends, also by SIGKILL.</li>
 * <li>Addresses: link N (the first {@code h2bN} device name free in the host namespace; the name is
 *     the lock between two servers on one machine) uses 198.18.4N+1 and +2 from RFC 2544's
 *     benchmarking range, point to point, MTU 1500, transmit queue 10,000 packets.</li>
 * <li>{@link io.h2bench.server.netem.kernel.Relay}, per direction: a reader blocked on one device,
 *     {@link io.h2bench.server.netem.kernel.LinkShaper} (Bernoulli loss, seeded; a drop-tail queue of
 *     {@code --queue} packets before a serialiser at the rate; the fixed one-way delay, RTT / 2)
 *     and a writer that parks until each packet is due. Packets live in preallocated native memory
 *     ({@link io.h2bench.server.netem.kernel.PacketRing}): no allocation per packet, no GC jitter.
 *     Both threads ask for SCHED_FIFO: the relay's timing jitter otherwise pushes cubic out of slow
 *     start early (HyStart).</li>
 * <li>The server's TCP: congestion control {@code --congestion-control} (default cubic, as the
 *     seeds' servers) set on the namespace's route to the clients, and
 *     {@code tcp_no_metrics_save}, so every connection starts from the initial window, as a first
 *     visit does.</li>
 * </ul>
 * Needs CAP_SYS_ADMIN and CAP_NET_ADMIN: root, or root of a user namespace
 * ({@code unshare --user --map-root-user --net}), where clients must share the server's user
 * namespace; the server's {@code -- COMMAND} does exactly that.
 */
package io.h2bench.server.netem.kernel;
