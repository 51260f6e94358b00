package io.h2bench.server;

import java.util.List;

import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.util.Callback;

/**
 * The two places where Jetty 12.1 answers a broken HTTP/2 request more leniently than RFC 9113's MUSTs,
 * made strict for both HTTP/2 connection factories (h2 and h2c). A protocol test server must not accept
 * what a client should never send, so clients can be tested against it.
 */
final class StreamErrors {

    private StreamErrors() {
    }

    /**
     * What the factories' session listener does instead of Jetty's 400 page when a header block failed
     * HPACK/metadata validation (HTTP2ServerSession.onHeaders calls onStreamFailure only then).
     */
    static void resetMalformedRequest(Stream stream, Callback callback) {
        // Jetty 12.1 answers with a 400 page (jetty PR #13141); RFC 9113 8.1.1 asks for a stream error.
        stream.reset(new ResetFrame(stream.getId(), ErrorCode.PROTOCOL_ERROR.code), callback);
    }

    /** Adds, to the new connection's session, the listener that answers DATA on closed streams. */
    static Connection answerDataOnClosedStreams(Connection connection) {
        HTTP2Session session = ((HTTP2Connection) connection).getSession();
        session.addEventListener(new ClosedStreamData(session));
        return connection;
    }

    /** One per session: it remembers the highest stream the client opened, to tell closed from idle streams. */
    private static final class ClosedStreamData implements HTTP2Session.FrameListener {
        private final HTTP2Session session;
        private int lastClientStream;

        ClosedStreamData(HTTP2Session session) {
            this.session = session;
        }

        // Called on the session's parsing thread, in frame order, before Jetty looks the stream up.
        @Override
        public void onIncomingFrame(Session ignored, Frame frame) {
            if (frame instanceof HeadersFrame headers && headers.getStreamId() % 2 == 1) {
                lastClientStream = Math.max(lastClientStream, headers.getStreamId());
            } else if (frame instanceof DataFrame data && isClosed(data.getStreamId())) {
                // Jetty drops it silently (jetty PRs #13667/#13668); RFC 9113 5.1 asks for STREAM_CLOSED.
                ResetFrame reset = new ResetFrame(data.getStreamId(), ErrorCode.STREAM_CLOSED_ERROR.code);
                session.frames(null, List.of(reset), Callback.NOOP);
            }
        }

        private boolean isClosed(int streamId) {
            return streamId <= lastClientStream && session.getStream(streamId) == null;
        }
    }
}
