package io.h2bench.server;

import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.frames.WindowUpdateFrame;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RateControl;
import org.eclipse.jetty.io.WindowRateControl;

/**
 * Jetty's rate control of suspicious HTTP/2 frames (rapid reset, CVE-2023-44487, and the like), except
 * for two kinds that RFC 9113 lets a client send at any rate and that cost the server nothing it did
 * not choose to start. Past the rate Jetty ends the connection with GOAWAY(ENHANCE_YOUR_CALM), and
 * every request in flight on it fails.
 * <ul>
 * <li><b>A reset of a stream the server pushed.</b> Section 8.4 lets a client reset any pushed stream
 * (CANCEL, REFUSED_STREAM), and Jetty's own client does it as a matter of course: it sends
 * {@code SETTINGS_MAX_CONCURRENT_STREAMS=32} for pushes but counts a pushed stream as open until its
 * application has read the stream's last DATA frame, while the server counts it closed once that frame
 * is written. The server then promises more pushes than the client counts room for, and the client
 * refuses each with RST_STREAM(REFUSED_STREAM): a page with 500 pushed items drew hundreds a second
 * (seed 004, issue 15). Rapid reset is about streams the client opens, which are odd-numbered and
 * still counted.</li>
 * <li><b>A WINDOW_UPDATE with a positive increment on a stream the server has ended.</b> Section 6.9
 * says it must not be treated as an error. A client that credits a stream as it reads it (Go's
 * net/http, for one) sends a round trip's worth of them after the server's END_STREAM: hundreds in a
 * burst after a large download on a 100 ms link (LateWindowUpdatesTest). An increment of 0 stays
 * suspicious.</li>
 * </ul>
 */
final class SuspiciousFramesRateControl implements RateControl {

    private final RateControl suspicious;

    private SuspiciousFramesRateControl(RateControl suspicious) {
        this.suspicious = suspicious;
    }

    /** The connection factories' rate control: {@code eventsPerSecond} as {@link WindowRateControl}. */
    static RateControl.Factory factory(int eventsPerSecond) {
        RateControl.Factory window = new WindowRateControl.Factory(eventsPerSecond);
        return new RateControl.Factory() {
            @Override
            public RateControl newRateControl(EndPoint endPoint) {
                return new SuspiciousFramesRateControl(window.newRateControl(endPoint));
            }
        };
    }

    @Override
    public boolean onEvent(Object event) {
        if (event instanceof ResetFrame reset && isServerInitiated(reset.getStreamId())) {
            return true;
        }
        if (event instanceof WindowUpdateFrame update && update.getWindowDelta() > 0) {
            return true;
        }
        return suspicious.onEvent(event);
    }

    /** RFC 9113 section 5.1.1: streams the server initiates (pushes) have even, non-zero identifiers. */
    private static boolean isServerInitiated(int streamId) {
        return streamId != 0 && streamId % 2 == 0;
    }
}
