package io.h2bench.client.connect;

import io.h2bench.client.wire.WireRegistry;
import java.time.Duration;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The one Jetty {@code ClientConnector} of this JVM, shared by every virtual user: a selector per
 * core, one small bounded thread pool, one scheduler, one buffer pool, the wire registry and the
 * host resolution of the users' profiles. Users get their own connections ({@code UserConnections}),
 * not connectors of their own, so 1,000 users cost no more threads than one. Reference counted:
 * started by the first user, stopped by the last (and by {@link #stopAll()} at test end) so that no
 * thread outlives the test.
 */
public final class SharedClient {

    /** Small and bounded: selector, scheduler and a few workers run I/O for all users. */
    public static final int MAX_THREADS = 16;
    /** Buffers of each size kept for reuse: more than the users of a large test hold at once. */
    private static final int POOLED_PER_SIZE = 1024;
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(15);
    /** Longer than Linux's SYN retries (127 s with the default six): the system ends a failing connect. */
    private static final Duration OS_DECIDES_CONNECT = Duration.ofMinutes(10);

    private static final SharedInstance<SharedClient> SHARED =
            new SharedInstance<>("the HTTP client", SharedClient::new, SharedClient::stop);

    private final WiretapConnector connector;
    private final WireRegistry registry = new WireRegistry();
    /** What Jetty adds to every connection it makes for the connector's callers: the registry (TLS handshakes). */
    private final ContainerLifeCycle connectionListeners = new ContainerLifeCycle();
    private final ProfileRouting routing;
    private volatile boolean stopped;

    private SharedClient() throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
        threads.setName("h2bench-client");
        // Daemon threads: a JMeter run must never hang at the end because of the client.
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler("h2bench-client-scheduler", true);

        // TLS trusts the server it is pointed at, as JMeter's own HTTP sampler does (ProfileTls).
        connector = new WiretapConnector(registry);
        connector.setExecutor(threads);
        connector.setScheduler(scheduler);
        connector.setByteBufferPool(bufferPool());
        // One selector per core: with non-blocking listeners the selectors parse every response, and
        // one thread for all users would cap the client at one core.
        // The TCP window follows the network, not the selector's wake-up time (ReceiveBuffer).
        connector.setReceiveBufferSize(ReceiveBuffer.socketBytes());
        connector.setSelectors(Math.max(1, Runtime.getRuntime().availableProcessors()));
        connector.setIdleTimeout(IDLE_TIMEOUT);
        // Each request's connect timeout is the plan's (OriginConnector); Jetty's own, client-wide and
        // 5 s by default, would cut a slower TCP connect that the plan allows, or that the operating
        // system still retries when the plan sets none, as JMeter's HttpClient4 leaves it to the system.
        connector.setConnectTimeout(OS_DECIDES_CONNECT);
        connectionListeners.addBean(registry);
        routing = new ProfileRouting(new SocketAddressResolver.Async(threads, scheduler, RESOLVE_TIMEOUT.toMillis()));
        // Starts the threads, the scheduler and the selectors with it.
        connector.start();
    }

    /**
     * Jetty's buffer sizes (2 kB steps to 64 kB), with room in each size for as many buffers as users
     * hold at once: JMeter's threads read their own responses (CallerReads), so the buffers in use at
     * a time follow the users, not the client's 16 threads, from which Jetty's default sizes its pool
     * (8 per size: at 50 users over h2, 1 to 1.5 % of the TLS and read buffers were allocated anew and
     * dropped). Buffers are kept only once released, up to Jetty's limit of an eighth of the heap.
     */
    private static ArrayByteBufferPool bufferPool() {
        return new ArrayByteBufferPool(0, 2048, 64 * 1024, POOLED_PER_SIZE);
    }

    /** Takes a reference, starting the client if this is the first user. */
    public static SharedClient acquire() {
        return SHARED.acquire();
    }

    /** Gives a reference back; the last one stops the client. */
    public void release() {
        SHARED.release(this);
    }

    /**
     * Stops the client whatever the count, after which none of its threads remains. JMeter's test end
     * calls {@code UserConnections.stopAll}, which stops HTTP/3's event loops too.
     */
    public static void stopAll() {
        SHARED.stopAll();
    }

    /** Whether a shared client is running now (for tests of the lifecycle). */
    public static boolean running() {
        return SHARED.running();
    }

    private void stop() {
        stopped = true;
        try {
            connector.stop();
        } catch (Exception ignored) {
            // Stopping is best effort: the threads are daemons and cannot keep JMeter alive.
        }
    }

    /** False once stopped (test end): users holding it must open again. */
    public boolean live() {
        return !stopped;
    }

    /** The listeners Jetty gives each connection made for the client (ClientConnector.HTTP_CLIENT_CONTEXT_KEY): tests add theirs. */
    public ContainerLifeCycle connectionListeners() {
        return connectionListeners;
    }

    /** The client's connector: every TCP connection, HTTP/1.1 and HTTP/2. */
    public ClientConnector connector() {
        return connector;
    }

    public ProfileRouting routing() {
        return routing;
    }

    public WireRegistry registry() {
        return registry;
    }
}
