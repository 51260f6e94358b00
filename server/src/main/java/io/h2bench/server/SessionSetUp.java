package io.h2bench.server;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.eclipse.jetty.http2.FlowControlStrategy;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.HTTP2Stream;
import org.eclipse.jetty.http2.SessionContainer;
import org.eclipse.jetty.http2.api.server.ServerSessionListener;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.generator.Generator;
import org.eclipse.jetty.http2.parser.ServerParser;
import org.eclipse.jetty.http2.server.AbstractHTTP2ServerConnectionFactory;
import org.eclipse.jetty.http2.server.internal.HTTP2ServerConnection;
import org.eclipse.jetty.http2.server.internal.HTTP2ServerSession;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.util.Callback;

/**
 * The server's half of an HTTP/2 session's set-up in one write, as nginx sends it: its SETTINGS, its
 * WINDOW_UPDATE and the ACK of the client's SETTINGS. Jetty 12.1 writes its SETTINGS and WINDOW_UPDATE
 * as soon as it has read the client's preface, and the ACK once it has read the SETTINGS frame that ends
 * that preface: two writes, so two TLS records and two TCP segments before the first response, each a
 * wake-up of its own on a busy machine (issue 42). The session here holds its first write back until
 * the ACK joins it; any other frame sent before (a GOAWAY for a broken preface, the response of an h2c
 * Upgrade) takes the held frames out first: RFC 9113 3.4 wants the server's SETTINGS first. A client
 * that sent the preface's first 24 bytes and waits for the server's SETTINGS before it sends its own
 * (3.4 has its SETTINGS follow at once) gets them when its SETTINGS arrive, no sooner.
 */
final class SessionSetUp {

    private SessionSetUp() {
    }

    /**
     * What {@link AbstractHTTP2ServerConnectionFactory#newConnection} builds (Jetty 12.1.14, step by
     * step), with {@link OneWriteSession} as the session: Jetty makes its session in that method only; and
     * {@link WholePrefaceParser} as the parser, which reads the client's preface SETTINGS in any pieces.
     */
    static HTTP2Connection newConnection(AbstractHTTP2ServerConnectionFactory factory, Connector connector, EndPoint endPoint,
                                         ServerSessionListener listener, UnaryOperator<HTTP2Connection> configure) {
        Generator generator = Http2Writes.generator(connector.getByteBufferPool(), factory.isUseOutputDirectByteBuffers(), factory.getMaxHeaderBlockFragment());
        int maxResponseHeaderSize = factory.getHttpConfiguration().getMaxResponseHeaderSize();
        generator.getHpackEncoder().setMaxHeaderListSize(maxResponseHeaderSize >= 0
                ? maxResponseHeaderSize : factory.getHttpConfiguration().getResponseHeaderSize());
        FlowControlStrategy flowControl = factory.getFlowControlStrategyFactory().newFlowControlStrategy();
        ServerParser parser = new WholePrefaceParser(connector.getByteBufferPool(), factory.getHttpConfiguration().getRequestHeaderSize(),
                factory.getRateControlFactory().newRateControl(endPoint));
        parser.setMaxSettingsKeys(factory.getMaxSettingsKeys());

        OneWriteSession session = new OneWriteSession(connector, endPoint, parser, generator, listener, flowControl);
        session.setMaxLocalStreams(factory.getMaxConcurrentStreams());
        session.setMaxRemoteStreams(factory.getMaxConcurrentStreams());
        session.setMaxEncoderTableCapacity(factory.getMaxEncoderTableCapacity());
        long streamIdleTimeout = factory.getStreamIdleTimeout();
        session.setStreamIdleTimeout(streamIdleTimeout == 0 ? endPoint.getIdleTimeout() : streamIdleTimeout);
        session.setInitialSessionRecvWindow(factory.getInitialSessionRecvWindow());
        session.setWriteThreshold(factory.getHttpConfiguration().getOutputBufferSize());
        session.setConnectProtocolEnabled(factory.isConnectProtocolEnabled());

        HTTP2Connection connection = new HTTP2ServerConnection(connector, endPoint, factory.getHttpConfiguration(), session, listener);
        connection.setUseInputDirectByteBuffers(factory.isUseInputDirectByteBuffers());
        connection.setUseOutputDirectByteBuffers(factory.isUseOutputDirectByteBuffers());
        connection.addEventListener(factory.getBean(SessionContainer.class));
        factory.getEventListeners().forEach(session::addEventListener);
        parser.init(connection);
        return configure.apply(connection);
    }

    /** Jetty's server session, whose preface SETTINGS (and WINDOW_UPDATE) wait for the ACK of the client's. */
    static final class OneWriteSession extends HTTP2ServerSession {
        private List<Frame> held;
        private boolean holding;

        OneWriteSession(Connector connector, EndPoint endPoint, ServerParser parser, Generator generator,
                        ServerSessionListener listener, FlowControlStrategy flowControl) {
            super(connector.getScheduler(), endPoint, parser, generator, listener, flowControl);
        }

        // On the parsing thread: Jetty's onPreface() sends its frames with one frames() call.
        @Override
        public void onPreface() {
            holding = true;
            try {
                super.onPreface();
            } finally {
                holding = false;
            }
        }

        @Override
        public void frames(HTTP2Stream stream, List<? extends Frame> frames, Callback callback) {
            if (holding) {
                synchronized (this) {
                    held = List.copyOf(frames);
                }
                callback.succeeded();
                return;
            }
            List<Frame> first = takeHeld();
            if (first == null) {
                super.frames(stream, frames, callback);
            } else if (stream == null) {
                super.frames(null, joined(first, frames), callback);
            } else {
                super.frames(null, first, Callback.NOOP);
                super.frames(stream, frames, callback);
            }
        }

        private synchronized List<Frame> takeHeld() {
            List<Frame> frames = held;
            held = null;
            return frames;
        }

        private static List<Frame> joined(List<Frame> first, List<? extends Frame> then) {
            List<Frame> all = new ArrayList<>(first);
            all.addAll(then);
            return all;
        }
    }
}
