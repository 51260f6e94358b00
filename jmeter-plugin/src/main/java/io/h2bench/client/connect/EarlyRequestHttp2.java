package io.h2bench.client.connect;

import io.h2bench.client.profile.BrowserPreset;
import java.io.IOException;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.client.Destination;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.SessionContainer;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.http2.client.transport.internal.HTTPSessionListenerPromise;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Callback;

/**
 * HTTP/2 (h2 over ALPN, h2c) for {@code HttpClientTransportDynamic}, sending the first request of a
 * new connection right after the client preface, as browsers, nghttp and h2load do.
 * <p>
 * Jetty 12.1's {@code ClientConnectionFactoryOverHTTP2.HTTP2} hands a new connection to the pool
 * only when the server's SETTINGS arrive, which costs every new connection one round trip more.
 * RFC 9113 section 3.4 lets a client send requests before then, under the initial settings. Here
 * the connection goes to the pool as soon as the preface is written, but carries one stream until
 * the server's SETTINGS arrive (its {@code SETTINGS_MAX_CONCURRENT_STREAMS} may be lower than a
 * page's burst); then the requests that waited are sent at once. Everything else (h2c upgrade, the
 * {@code HTTP2Client}'s lifecycle and configuration) stays Jetty's.
 */
public final class EarlyRequestHttp2 extends ClientConnectionFactoryOverHTTP2.HTTP2 {

    private final ClientConnectionFactory factory;

    EarlyRequestHttp2(HTTP2Client client) {
        super(client);
        factory = new Factory(client);
    }

    @Override
    public ClientConnectionFactory getClientConnectionFactory() {
        return factory;
    }

    /**
     * Jetty's own, with our session listener in place of Jetty's; a connection starts with the
     * SETTINGS and windows of the user's {@link BrowserPreset} ({@link PresetHttp2Connection}),
     * Jetty's own defaults under {@link BrowserPreset#JETTY}.
     */
    private record Factory(HTTP2Client client, SessionContainer presetSessions) implements ClientConnectionFactory {

        Factory(HTTP2Client client) {
            this(client, new SessionContainer());
        }

        @Override
        public Connection newConnection(EndPoint endPoint, Map<String, Object> context) throws IOException {
            SessionListener listener = new SessionListener(context);
            context.put(HTTP2Client.CONTEXT_KEY, client);
            context.put(HTTP2Client.SESSION_LISTENER_CONTEXT_KEY, listener);
            context.put(HTTP2Client.SESSION_PROMISE_CONTEXT_KEY, listener);
            BrowserPreset.Http2 preset = ProfileRouting.profileOf(context).preset().http2();
            return PresetHttp2Connection.factory(client, presetSessions, preset).newConnection(endPoint, context);
        }
    }

    /**
     * Jetty's listener of a new session creates the client connection on the server's first
     * SETTINGS; this one also creates it when the client preface has been written, whichever
     * comes first (Jetty's listener does it once).
     */
    private static final class SessionListener extends HTTPSessionListenerPromise {

        private static final SettingsFrame NOT_READ = new SettingsFrame(Map.of(), false);

        private final Destination destination;
        private volatile boolean serverSettings;

        SessionListener(Map<String, Object> context) {
            super(context);
            destination = (Destination) context.get(Destination.CONTEXT_KEY);
        }

        /** The client preface (and our SETTINGS) are written: the connection may carry a request. */
        @Override
        public void succeeded(Session session) {
            // Jetty's onSettings does nothing but create the connection once; the frame is not read.
            super.onSettings(session, NOT_READ);
        }

        @Override
        public void onSettings(Session session, SettingsFrame frame) {
            serverSettings = true;
            super.onSettings(session, frame);
            // The connection may now carry more streams: send what waited for them, as the pool
            // does when a connection frees up, without opening another.
            if (destination instanceof Callback connectionAvailable) {
                connectionAvailable.succeeded();
            }
        }

        @Override
        protected org.eclipse.jetty.client.Connection newConnection(
                Destination destination, Session session, HTTP2Connection connection) {
            return new OneStreamUntilSettings(destination, session, connection, () -> serverSettings);
        }
    }

    /** Before the server's SETTINGS, its stream limit is unknown: one request at a time. */
    private static final class OneStreamUntilSettings extends PushSafeConnectionOverHTTP2 {

        private final BooleanSupplier serverSettings;

        OneStreamUntilSettings(Destination destination, Session session, HTTP2Connection connection,
                               BooleanSupplier serverSettings) {
            super(destination, session, connection);
            this.serverSettings = serverSettings;
        }

        @Override
        public int getMaxMultiplex() {
            return serverSettings.getAsBoolean() ? super.getMaxMultiplex() : 1;
        }
    }
}
