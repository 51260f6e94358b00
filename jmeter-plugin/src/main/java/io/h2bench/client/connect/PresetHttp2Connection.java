package io.h2bench.client.connect;

import io.h2bench.client.profile.BrowserPreset;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.FlowControlStrategy;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.HTTP2Stream;
import org.eclipse.jetty.http2.SessionContainer;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.internal.HTTP2ClientSession;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PrefaceFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.http2.frames.WindowUpdateFrame;
import org.eclipse.jetty.http2.generator.Generator;
import org.eclipse.jetty.http2.parser.Parser;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;

/**
 * A client HTTP/2 connection that starts as its user's preset says (a browser's, or Jetty's own
 * defaults written out): the preface, then exactly the preset's SETTINGS in its order, then one
 * WINDOW_UPDATE opening its connection window, in one write.
 * <p>
 * Jetty's own {@code HTTP2ClientConnectionFactory} derives the SETTINGS from {@code HTTP2Client}'s
 * configuration and always adds SETTINGS_MAX_CONCURRENT_STREAMS and SETTINGS_MAX_HEADER_LIST_SIZE,
 * which a browser may not send (Firefox sends neither); and its connection window is client-wide.
 * Everything else (parser, generator, flow control strategy, session, listeners) is made from the
 * {@code HTTP2Client} as Jetty makes it, so the connection behaves as Jetty's does once open.
 */
public final class PresetHttp2Connection extends HTTP2Connection implements Callback {

    private final BrowserPreset.Http2 preset;
    private final Promise<Session> promise;

    private PresetHttp2Connection(HTTP2Client client, EndPoint endPoint, HTTP2Session session, BrowserPreset.Http2 preset,
                                  Promise<Session> promise) {
        super(client.getByteBufferPool(), client.getExecutor(), endPoint, session, client.getInputBufferSize(), -1);
        this.preset = preset;
        this.promise = promise;
        setUseInputDirectByteBuffers(client.isUseInputDirectByteBuffers());
        setUseOutputDirectByteBuffers(client.isUseOutputDirectByteBuffers());
    }

    /**
     * Makes connections for {@code preset} with {@code client}'s parts, as Jetty's factory does;
     * {@code sessions} starts each session as its connection opens and stops it as it closes, as
     * {@code HTTP2Client}'s own container does for its connections (a stopped session fails its
     * streams and closes; an unstarted one would ignore being stopped).
     */
    static ClientConnectionFactory factory(HTTP2Client client, SessionContainer sessions, BrowserPreset.Http2 preset) {
        return new ClientConnectionFactory() {
            @Override
            public Connection newConnection(EndPoint endPoint, Map<String, Object> context) {
                PresetHttp2Connection connection = PresetHttp2Connection.newConnection(client, preset, endPoint, context);
                connection.addEventListener(sessions);
                return customize(connection, context);
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static PresetHttp2Connection newConnection(HTTP2Client client, BrowserPreset.Http2 preset, EndPoint endPoint,
                                                       Map<String, Object> context) {
        Session.Listener listener = (Session.Listener) context.get(HTTP2Client.SESSION_LISTENER_CONTEXT_KEY);
        Promise<Session> promise = (Promise<Session>) context.get(HTTP2Client.SESSION_PROMISE_CONTEXT_KEY);
        Generator generator = new Generator(client.getByteBufferPool(), client.isUseOutputDirectByteBuffers(),
                client.getMaxHeaderBlockFragment());
        generator.getHpackEncoder().setMaxHeaderListSize(client.getMaxRequestHeadersSize());
        Parser parser = new Parser(client.getByteBufferPool(), client.getMaxResponseHeadersSize());
        parser.setMaxSettingsKeys(client.getMaxSettingsKeys());
        FlowControlStrategy flowControl = client.getFlowControlStrategyFactory().newFlowControlStrategy();
        HTTP2ClientSession session = new HTTP2ClientSession(client.getScheduler(), endPoint, parser, generator, listener, flowControl);
        session.setMaxLocalStreams(client.getMaxLocalStreams());
        // Until the SETTINGS are written (they then set it): pushes only as many as the preset allows.
        session.setMaxRemoteStreams(preset.settings().getOrDefault(BrowserPreset.Http2.MAX_CONCURRENT_STREAMS, -1));
        session.setMaxEncoderTableCapacity(client.getMaxEncoderTableCapacity());
        if (client.getStreamIdleTimeout() > 0) {
            session.setStreamIdleTimeout(client.getStreamIdleTimeout());
        }
        PresetHttp2Connection connection = new PresetHttp2Connection(client, endPoint, session, preset, promise);
        context.put(HTTP2Connection.class.getName(), connection);
        client.getEventListeners().forEach(session::addEventListener);
        if (preset.requestStreamWindow() > preset.initialStreamWindow()) {
            session.addEventListener(new RequestStreamWindow(session, preset.requestStreamWindow() - preset.initialStreamWindow()));
        }
        parser.init(connection);
        return connection;
    }

    @Override
    public void onOpen() {
        HTTP2Session session = getSession();
        session.notifyLifeCycleOpen();
        // Jetty's session applies its own side of the SETTINGS (decoder table, push, stream limit and
        // window, frame and header list sizes) when it writes them.
        SettingsFrame settings = new SettingsFrame(preset.settings(), false);
        int windowDelta = preset.connectionWindow() - BrowserPreset.Http2.DEFAULT_WINDOW;
        if (windowDelta > 0) {
            session.updateRecvWindow(windowDelta);
            session.frames(null, List.of(new PrefaceFrame(), settings, new WindowUpdateFrame(0, windowDelta)), this);
        } else {
            session.frames(null, List.of(new PrefaceFrame(), settings), this);
        }
    }

    /** The preface is written: the connection opens, and reads only now, so that ours precedes any SETTINGS ack. */
    @Override
    public void succeeded() {
        super.onOpen();
        promise.succeeded(getSession());
        produce();
    }

    @Override
    public void failed(Throwable failure) {
        close();
        promise.failed(failure);
    }

    /**
     * Raises each request stream's window past the SETTINGS' one with a WINDOW_UPDATE right after the
     * request's HEADERS, as Firefox does (its SETTINGS announce 128 KiB, for pushes; requests get 12 MiB).
     */
    private record RequestStreamWindow(HTTP2Session session, int delta) implements HTTP2Session.FrameListener {

        @Override
        public void onOutgoingFrame(Session ignored, Frame frame) {
            if (!(frame instanceof HeadersFrame headers) || !(headers.getMetaData() instanceof MetaData.Request)) {
                return;
            }
            HTTP2Stream stream = session.getStream(headers.getStreamId());
            if (stream != null) {
                stream.updateRecvWindow(delta);
                // Written after the HEADERS, whose write is under way: the flusher takes it next.
                session.frames(stream, List.of(new WindowUpdateFrame(stream.getId(), delta)), Callback.NOOP);
            }
        }
    }
}
