package io.h2bench.client.connect;

import io.h2bench.client.wire.WireRegistry;
import java.time.Duration;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.MultiplexConnectionPool;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The one Jetty {@code HttpClient} of this JVM, shared by every virtual user: a selector per core, one
 * small bounded thread pool, one scheduler, one buffer pool. Users get their own connections
 * through request tags ({@code UserConnections}), not through clients of their own, so 1,000 users
 * cost no more threads than one. Reference counted: started by the first user, stopped by the last
 * (and by {@link #stopAll()} at test end) so that no thread outlives the test.
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

    private final HttpClient httpClient;
    private final HTTP2Client http2Client;
    private final WiretapConnector connector;
    private final WireRegistry registry = new WireRegistry();
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
        // One selector per core: with non-blocking listeners the selectors parse every response, and
        // one thread for all users would cap the client at one core.
        // The TCP window follows the network, not the selector's wake-up time (ReceiveBuffer).
        connector.setReceiveBufferSize(ReceiveBuffer.socketBytes());
        connector.setSelectors(Math.max(1, Runtime.getRuntime().availableProcessors()));
        connector.setIdleTimeout(IDLE_TIMEOUT);
        // Each request's connect timeout is the plan's (UserConnections); Jetty's own, client-wide and
        // 5 s by default, would cut a slower TCP connect that the plan allows, or that the operating
        // system still retries when the plan sets none, as JMeter's HttpClient4 leaves it to the system.
        connector.setConnectTimeout(OS_DECIDES_CONNECT);

        // Left at Jetty's defaults, which the JETTY preset writes out. Every connection announces its
        // user's preset's SETTINGS and windows (PresetHttp2Connection): Chrome's, the default, allow
        // 1,000 pushed streams, not Jetty's 32, so that a page that pushes its 500 items gets them
        // pushed (seed 004), and flow control never limits a download before TCP does.
        HTTP2Client http2 = new HTTP2Client(connector);
        http2Client = http2;
        // Room for more than a TLS record's plaintext, so that TLS decrypts into the session's read
        // buffer instead of a buffer of its own copied afterwards (Jetty's default 8 KB; Http11Connection).
        http2.setInputBufferSize(32 * 1024);
        // h2 first: ALPN offers the protocols in this order, then http/1.1 (refused per request in
        // UserConnections when HTTP/2 was chosen explicitly). The first
        // request of a new HTTP/2 connection leaves with the preface, not after the server's SETTINGS.
        HttpClientTransportDynamic transport = new HttpClientTransportDynamic(connector,
                new EarlyRequestHttp2(http2), HttpClientConnectionFactory.HTTP11);
        // Pool size per user and origin comes from the tag; one per origin for HTTP/2, which also
        // avoids the cold-pool burst of one connection per request before SETTINGS arrive.
        transport.setConnectionPoolFactory(destination -> new MultiplexConnectionPool(
                destination, UserTag.maxConnectionsOf(destination.getOrigin().getTag()), 1));
        // The recorder's listeners never block: HTTP/1.1 responses are parsed and completed on the
        // selector thread instead of a hop to a worker per read (measured: most of a sample's time).
        transport.setInvocationType(Invocable.InvocationType.NON_BLOCKING);

        httpClient = new HttpClient(transport);
        httpClient.setExecutor(threads);
        httpClient.setByteBufferPool(bufferPool());
        httpClient.setScheduler(scheduler);
        httpClient.setFollowRedirects(false);
        // JMeter's Cookie Manager owns cookies; the client must not add any of its own.
        httpClient.setHttpCookieStore(new HttpCookieStore.Empty());
        httpClient.setUserAgentField(null);
        httpClient.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        httpClient.setMaxRequestsQueuedPerDestination(100_000);
        httpClient.addBean(registry);
        routing = new ProfileRouting(httpClient, new SocketAddressResolver.Async(threads, scheduler, RESOLVE_TIMEOUT.toMillis()));
        httpClient.setSocketAddressResolver(routing);
        httpClient.start();
        // Bodies stay as the server sent them and Accept-Encoding comes only from the test plan. Only
        // after start(): Jetty 12.1's doStart() fills an *empty* set from ServiceLoader<Compression>.
        httpClient.getContentDecoderFactories().clear();
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
            httpClient.stop();
        } catch (Exception ignored) {
            // Stopping is best effort: the threads are daemons and cannot keep JMeter alive.
        }
    }

    /** False once stopped (test end): users holding it must open again. */
    public boolean live() {
        return !stopped;
    }

    public HttpClient httpClient() {
        return httpClient;
    }

    /** The HTTP/2 part of {@link #httpClient()}, whose configuration Jetty's own connections announce. */
    public HTTP2Client http2Client() {
        return http2Client;
    }

    /** The client's connector: every TCP connection, the sampler's own HTTP/1.1 ones too. */
    public ClientConnector connector() {
        return connector;
    }

    public ProfileRouting routing() {
        return routing;
    }

    public WireRegistry registry() {
        return registry;
    }

    /** TCP connections this client opened since it started. */
    public long connectionsOpened() {
        return registry.connectionsOpened();
    }
}
