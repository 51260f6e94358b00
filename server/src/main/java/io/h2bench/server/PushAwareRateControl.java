package io.h2bench.server;

import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RateControl;
import org.eclipse.jetty.io.WindowRateControl;

/**
 * Jetty's rate control of suspicious HTTP/2 frames (rapid reset, CVE-2023-44487, and the like), except
 * that a client's RST_STREAM of a stream the server pushed is not counted.
 * <p>
 * RFC 9113 section 8.4 lets a client reset any pushed stream (CANCEL, REFUSED_STREAM), and Jetty's own
 * client does it as a matter of course: it sends {@code SETTINGS_MAX_CONCURRENT_STREAMS=32} for pushes
 * but counts a pushed stream as open until its application has read the stream's last DATA frame,
 * while the server counts it closed once that frame is written. The server then promises more pushes
 * than the client counts room for, and the client refuses each with RST_STREAM(REFUSED_STREAM). A page
 * with 500 pushed items drew up to hundreds of these a second; with Jetty's window of 128 a second the
 * server answered GOAWAY(ENHANCE_YOUR_CALM, "invalid_rst_stream_frame_rate") and every item request in
 * flight failed (seed 004, issue 15). Such a reset costs the server nothing it did not choose to start
 * (it pushed the stream, within the client's limit); rapid reset is about streams the client opens,
 * which are odd-numbered and still counted, and a flood of resets of even-numbered streams costs the
 * server no more than a flood of WINDOW_UPDATE frames, which Jetty never counts.
 */
final class PushAwareRateControl implements RateControl {

    private final RateControl suspicious;

    private PushAwareRateControl(RateControl suspicious) {
        this.suspicious = suspicious;
    }

    /** The connection factories' rate control: {@code eventsPerSecond} as {@link WindowRateControl}. */
    static RateControl.Factory factory(int eventsPerSecond) {
        RateControl.Factory window = new WindowRateControl.Factory(eventsPerSecond);
        return new RateControl.Factory() {
            @Override
            public RateControl newRateControl(EndPoint endPoint) {
                return new PushAwareRateControl(window.newRateControl(endPoint));
            }
        };
    }

    @Override
    public boolean onEvent(Object event) {
        if (event instanceof ResetFrame reset && isServerInitiated(reset.getStreamId())) {
            return true;
        }
        return suspicious.onEvent(event);
    }

    /** RFC 9113 section 5.1.1: streams the server initiates (pushes) have even, non-zero identifiers. */
    private static boolean isServerInitiated(int streamId) {
        return streamId != 0 && streamId % 2 == 0;
    }
}
