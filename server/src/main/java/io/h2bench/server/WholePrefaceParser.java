package io.h2bench.server;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.eclipse.jetty.http2.Flags;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.FrameType;
import org.eclipse.jetty.http2.frames.PrefaceFrame;
import org.eclipse.jetty.http2.parser.ServerParser;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RateControl;

/**
 * Jetty's server parser, given the client's connection preface and the SETTINGS frame that ends it in one
 * piece. Jetty 12.1.14's {@code ServerParser} parses that frame's 9-byte header again on each read until its
 * payload is whole: when the payload comes in a later read than the header, it takes the payload's bytes for
 * a new frame header and ends the connection with GOAWAY (PROTOCOL_ERROR "invalid_settings_frame", or
 * FRAME_SIZE_ERROR "invalid_frame_length"). A client that writes the preface, the header and the payload
 * apart (RFC 9113 3.4 does not ask for one write) saw its connection closed now and then on a busy machine:
 * SlowReadersTest's attackers, "Broken pipe" while they still wrote. This parser holds those bytes back until
 * the frame is whole, or until they show they are no preface of HTTP/2 (a wrong byte, another frame, a length
 * over the maximum), which it hands to Jetty at once so that Jetty answers them as before.
 */
final class WholePrefaceParser extends ServerParser {

    private static final byte[] PREFACE = PrefaceFrame.PREFACE_BYTES;

    /** Where the preface's bytes still to come start in {@link #PREFACE}: after "PRI * HTTP/2.0\r\n\r\n" when HTTP/1.1 read those. */
    private int prefaceStart;
    private byte[] held = new byte[PREFACE.length + Frame.HEADER_LENGTH];
    private int heldLength;
    private boolean whole;

    WholePrefaceParser(ByteBufferPool pool, int maxHeaderSize, RateControl rateControl) {
        super(pool, maxHeaderSize, rateControl);
    }

    @Override
    public void directUpgrade() {
        super.directUpgrade();
        prefaceStart = PrefaceFrame.PREFACE_PREAMBLE_BYTES.length;
    }

    @Override
    public void parse(ByteBuffer buffer) {
        if (whole) {
            super.parse(buffer);
            return;
        }
        hold(buffer);
        if (isComplete()) {
            whole = true;
            ByteBuffer all = ByteBuffer.wrap(held, 0, heldLength);
            held = null;
            super.parse(all);
        }
    }

    /** Appends the buffer's bytes to those held, consuming them. */
    private void hold(ByteBuffer buffer) {
        int length = buffer.remaining();
        if (heldLength + length > held.length) {
            held = Arrays.copyOf(held, Math.max(held.length * 2, heldLength + length));
        }
        buffer.get(held, heldLength, length);
        heldLength += length;
    }

    /** True once the held bytes are the preface and a whole SETTINGS frame, or anything Jetty must answer now. */
    private boolean isComplete() {
        int preface = PREFACE.length - prefaceStart;
        for (int i = 0; i < Math.min(preface, heldLength); i++) {
            if (held[i] != PREFACE[prefaceStart + i]) {
                return true;
            }
        }
        if (heldLength < preface + Frame.HEADER_LENGTH) {
            return false;
        }
        int length = (held[preface] & 0xFF) << 16 | (held[preface + 1] & 0xFF) << 8 | held[preface + 2] & 0xFF;
        boolean settings = held[preface + 3] == FrameType.SETTINGS.getType() && (held[preface + 4] & Flags.ACK) == 0;
        return !settings || length > getMaxFrameSize() || heldLength >= preface + Frame.HEADER_LENGTH + length;
    }
}
