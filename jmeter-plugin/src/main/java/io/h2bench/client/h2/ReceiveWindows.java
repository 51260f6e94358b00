package io.h2bench.client.h2;

import io.h2bench.client.profile.BrowserPreset;
import org.eclipse.jetty.http2.frames.WindowUpdateFrame;

/**
 * What an {@link Http2FrameConnection} receives reopens the server's windows as Jetty's client does
 * (its {@code HTTP2Client}'s default {@code BufferingFlowControlStrategy}, ratio 0.5), so that a
 * large download meets the same flow control on both paths: consumed bytes accumulate, and a
 * WINDOW_UPDATE of all of them goes out once they pass half the window, for the connection (half of
 * the largest window it has had: the preset's, once its WINDOW_UPDATE is written) and for a stream
 * (half of the SETTINGS' initial window) that the server has not ended. Guarded by the connection's lock.
 */
final class ReceiveWindows {

    private static final float RATIO = 0.5F;

    private final int initialStreamWindow;
    private int connectionWindow = BrowserPreset.Http2.DEFAULT_WINDOW;
    private int maxConnectionWindow = BrowserPreset.Http2.DEFAULT_WINDOW;
    private int connectionConsumed;

    ReceiveWindows(BrowserPreset.Http2 preset) {
        initialStreamWindow = preset.initialStreamWindow();
    }

    /** The connection's window was raised by {@code delta} with a WINDOW_UPDATE. */
    void connectionWindowSent(int delta) {
        connectionWindow += delta;
        maxConnectionWindow = Math.max(maxConnectionWindow, connectionWindow);
    }

    /** {@code length} bytes of DATA (padding included) were received and consumed on {@code stream} (null: a stream gone). */
    void consumed(Http2FrameWriter writer, Http2Exchange stream, int length) {
        if (length <= 0) {
            return;
        }
        connectionWindow -= length;
        connectionConsumed += length;
        if (connectionConsumed > (int) (maxConnectionWindow * RATIO)) {
            int delta = connectionConsumed;
            connectionConsumed = 0;
            writer.queue(new WindowUpdateFrame(0, delta));
            connectionWindowSent(delta);
        }
        if (stream != null && !stream.remotelyClosed) {
            stream.receivedSinceUpdate += length;
            if (stream.receivedSinceUpdate > (int) (initialStreamWindow * RATIO)) {
                int delta = stream.receivedSinceUpdate;
                stream.receivedSinceUpdate = 0;
                writer.queue(new WindowUpdateFrame(stream.streamId, delta));
            }
        }
    }
}
