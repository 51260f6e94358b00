package io.h2bench.client.h2;

import io.h2bench.client.connect.PushSafeConnectionOverHTTP2;
import io.h2bench.client.direct.OriginKey;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.FailureMessages;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.exchange.ResponseTimeouts;
import io.h2bench.client.exchange.ResponseWatchdog;
import io.h2bench.client.wire.WireConnection;
import io.h2bench.client.wire.WireRegistry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.jetty.client.Connection;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.client.transport.internal.HttpConnectionOverHTTP2;

/**
 * A virtual user's HTTP/2 sessions on which the sampler opens streams itself (issue 20): a request
 * sent here costs Jetty's session and stream API, not {@code HttpClient}'s request machinery
 * (conversation, exchange, destination queue, channel, sender, receiver), which the profile showed
 * to be most of the client's cost per request.
 * <p>
 * {@code HttpClient} still opens every connection, with all that makes one (TLS and ALPN, proxy
 * CONNECT, client certificate, source address, DNS, cps, the h2c upgrade, the early first request),
 * and carries the requests sent while it is busy on that origin. Once the user's HTTP/2 connection
 * to an origin exists and no request of the user is in {@code HttpClient}'s hands there, the next
 * requests to it with the same connection profile go straight onto its session, up to the server's
 * stream limit; more wait here, in order. A session that ends, refuses a stream or receives a
 * GOAWAY is forgotten, and the next request goes to {@code HttpClient}, which opens a new connection.
 * A redirected request's hops come here as requests of their own. What still needs it: HTTP/2
 * through a proxy reached over TLS (h2 by its CONNECT) and the h2c Upgrade through a proxy. HTTP/2
 * through a clear-text proxy comes here no more ({@link DirectHttp2Connections} tunnels it), nor does
 * HTTP/2 direct, under any preset, over TLS (ALPN, with or without the fall-back to HTTP/1.1), in
 * clear text by prior knowledge or by Upgrade: {@link DirectHttp2Connections} carries it on connections of the
 * sampler's own, without a session.
 */
public final class DirectSessions {

    /** The name its samples carry (ExchangeResult#engine): streams on Jetty's HTTP2Client sessions. */
    public static final String ENGINE = "h2-jetty-session";

    private final Map<OriginKey, Origin> origins = new ConcurrentHashMap<>();
    private final Set<StreamExchange> inFlight = ConcurrentHashMap.newKeySet();
    private final WireRegistry registry;
    private final ResponseTimeouts responseTimeouts;

    public DirectSessions(WireRegistry registry, ResponseTimeouts responseTimeouts) {
        this.registry = registry;
        this.responseTimeouts = responseTimeouts;
    }

    /** Whether this engine may carry {@code exchange} at all (else it always goes through HttpClient). */
    public static boolean eligible(ExchangeRequest exchange) {
        ProtocolMode mode = exchange.mode();
        return mode != ProtocolMode.HTTP_1_1 && !mode.http3();
    }

    /**
     * Sends on the session for {@code key} when there is one to use now, or returns null: the caller
     * sends through HttpClient and reports that exchange with {@link #viaClient}. {@code viaClient}
     * here is how to send through HttpClient if the stream cannot be opened after all.
     */
    public CompletableFuture<ExchangeResult> trySend(OriginKey key, ExchangeRequest exchange,
                                              Function<ExchangeRequest, CompletableFuture<ExchangeResult>> viaClient) {
        Origin origin = origins.get(key);
        if (origin == null) {
            return null;
        }
        StreamExchange stream;
        HTTP2Session session;
        WireConnection wire;
        Connection connection;
        synchronized (origin) {
            session = origin.usableSession();
            if (session == null) {
                return null;
            }
            wire = origin.wire;
            connection = origin.connection;
            ExchangeRecorder recorder = new ExchangeRecorder(exchange, exchange.uri(), false, registry);
            stream = new StreamExchange(exchange, recorder, origin.ending(viaClient));
            // The connection exists: the response timeout counts from the send.
            recorder.watchWith(ResponseWatchdog.watch(responseTimeouts, stream::abort, exchange.responseTimeout().toMillis(), false));
            if (!origin.takeSlot(session)) {
                origin.waiting.add(stream);
                inFlight.add(stream);
                return stream.result();
            }
        }
        inFlight.add(stream);
        stream.open(session, wire, connection);
        return stream.result();
    }

    /** HttpClient took an exchange of {@code key}: until it ends, the next ones go there too. */
    public void viaClient(OriginKey key, CompletableFuture<ExchangeResult> result) {
        Origin origin = origins.computeIfAbsent(key, ignored -> new Origin());
        synchronized (origin) {
            origin.viaClient++;
        }
        result.whenComplete((done, failure) -> {
            synchronized (origin) {
                origin.viaClient--;
            }
        });
    }

    /** HttpClient gave an exchange of {@code key} its connection: an HTTP/2 one's session is learnt. */
    public void connectionAssigned(OriginKey key, Connection connection) {
        if (!(connection instanceof HttpConnectionOverHTTP2 h2) || !(h2.getSession() instanceof HTTP2Session session)) {
            return;
        }
        Origin origin = origins.get(key);
        WireConnection wire = registry.find(connection);
        if (origin == null || wire == null) {
            return;
        }
        synchronized (origin) {
            if (origin.session == null && !ended(session, connection)) {
                origin.session = session;
                origin.connection = connection;
                origin.wire = wire;
                origin.streams = 0;
            }
        }
    }

    /** Ends every exchange in flight here with {@code reason} (JMeter's stop button). */
    public void abortAll(String reason) {
        for (StreamExchange exchange : inFlight) {
            exchange.abort(FailureMessages.stopped(reason));
        }
    }

    /** Forgets every session: the user's connections are closing (HttpClient closes them). */
    public void reset() {
        origins.clear();
    }

    /**
     * Closed, or told to go away. A request that the server's GOAWAY left unprocessed is sent again at
     * once, while Jetty's session still counts as open: that second try must go on a new connection
     * (the h2c Upgrade against Apache httpd, whose upgraded connection carries one response).
     */
    private static boolean ended(HTTP2Session session, Connection connection) {
        return session.isClosed() || connection instanceof PushSafeConnectionOverHTTP2 pushSafe && pushSafe.goneAway();
    }

    /** One origin's session, the streams it carries for the user, and the requests waiting for one. */
    private final class Origin {

        private final ArrayDeque<StreamExchange> waiting = new ArrayDeque<>();
        private HTTP2Session session;
        /** HttpClient's connection of {@link #session}. */
        private Connection connection;
        private WireConnection wire;
        private int streams;
        private int viaClient;

        /** The session to send on now, or null (none, closed, or HttpClient busy on this origin). */
        private HTTP2Session usableSession() {
            if (session != null && ended(session, connection)) {
                forget(session);
            }
            return viaClient > 0 ? null : session;
        }

        /** Takes a stream slot on {@code current}, if the server's limit leaves one. */
        private boolean takeSlot(HTTP2Session current) {
            int max = current.getMaxLocalStreams();
            if (max >= 0 && streams >= max) {
                return false;
            }
            streams++;
            return true;
        }

        private void forget(HTTP2Session ended) {
            if (session == ended) {
                session = null;
                connection = null;
                wire = null;
                streams = 0;
            }
        }

        private StreamExchange.Ending ending(Function<ExchangeRequest, CompletableFuture<ExchangeResult>> viaClientSend) {
            return new StreamExchange.Ending() {
                @Override
                public void ended(StreamExchange exchange, boolean sessionUnusable) {
                    inFlight.remove(exchange);
                    release(exchange, sessionUnusable, viaClientSend);
                }

                @Override
                public void notOpened(StreamExchange exchange, Throwable why) {
                    inFlight.remove(exchange);
                    release(exchange, true, viaClientSend);
                    exchange.handOver(viaClientSend.apply(exchange.request()));
                }
            };
        }

        /** A stream ended: its slot goes to the next waiting request, or back. */
        private void release(StreamExchange ended, boolean sessionUnusable,
                             Function<ExchangeRequest, CompletableFuture<ExchangeResult>> viaClientSend) {
            StreamExchange next = null;
            HTTP2Session current;
            WireConnection currentWire;
            Connection currentConnection;
            List<StreamExchange> orphans = List.of();
            synchronized (this) {
                if (sessionUnusable && session != null) {
                    forget(session);
                }
                if (ended.opened() && streams > 0) {
                    streams--;
                }
                current = session;
                currentWire = wire;
                currentConnection = connection;
                if (current == null) {
                    // The session ended under the waiting requests: HttpClient opens another.
                    orphans = new ArrayList<>(waiting);
                    waiting.clear();
                } else if (ended.opened()) {
                    next = pollUnfinished();
                    if (next != null) {
                        streams++;
                    }
                }
            }
            for (StreamExchange orphan : orphans) {
                inFlight.remove(orphan);
                if (!orphan.finished()) {
                    orphan.handOver(viaClientSend.apply(orphan.request()));
                }
            }
            if (next != null) {
                next.open(current, currentWire, currentConnection);
            }
        }

        private StreamExchange pollUnfinished() {
            StreamExchange next = waiting.poll();
            while (next != null && next.finished()) {
                next = waiting.poll();
            }
            return next;
        }
    }
}
