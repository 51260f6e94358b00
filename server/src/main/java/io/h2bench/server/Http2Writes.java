package io.h2bench.server;

import java.nio.ByteBuffer;

import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.Flags;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.FrameType;
import org.eclipse.jetty.http2.generator.Generator;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * How an HTTP/2 connection gathers its frames before it writes them to the socket.
 *
 * <p>Jetty writes once the frames it has gathered reach 32 KiB; a 16 KiB DATA frame is 9 bytes more than 16 KiB,
 * so over TLS every such write ended in a record of a few dozen bytes of its own, and a 2 MiB body took 64 of them
 * and 192 socket writes where 129 records carry it (issue 41). Gathering up to 1 MiB leaves one short record per
 * MiB; the frames are views of the response's buffers, so it costs no copy.
 *
 * <p>Jetty writes each DATA frame's 9-byte header into a buffer of 8 KiB taken from the connector's pool, since the
 * body's bytes it adds after the header end the gathering buffer before it. 1 MiB of frames held 64 such buffers
 * (512 KiB) per connection until written; over TLS, whose writes wait for encryption and for the client, so many
 * were out at once that each frame's header searched the pool's 256 busy entries before taking one from its
 * overflow queue: with 2 MiB bodies over h2 at 100 connections, that search and Jetty's recounting of the gathered
 * buffers for each header were half of the server's Java samples, and its CPU per request 1.5 times nginx's.
 * {@link #generator} writes the same header bytes into a 9-byte buffer of its own instead.
 */
final class Http2Writes {

    static final int THRESHOLD = 1024 * 1024;

    private Http2Writes() {
    }

    static Connection gathered(Connection connection) {
        ((HTTP2Connection) connection).getSession().setWriteThreshold(THRESHOLD);
        return connection;
    }

    /** Jetty's frame generator, but for the header of a DATA frame, which gets a buffer of its own size. */
    static Generator generator(ByteBufferPool pool, boolean direct, int maxHeaderBlockFragment) {
        return new OwnDataHeaders(pool, direct, maxHeaderBlockFragment);
    }

    /** As Jetty 12.1.14's {@code DataGenerator}, byte for byte, with the header added rather than put. */
    private static final class OwnDataHeaders extends Generator {

        OwnDataHeaders(ByteBufferPool pool, boolean direct, int maxHeaderBlockFragment) {
            super(pool, direct, maxHeaderBlockFragment);
        }

        @Override
        public int data(RetainableByteBuffer.Mutable accumulator, DataFrame frame, int maxLength) {
            int streamId = frame.getStreamId();
            if (streamId < 0) {
                throw new IllegalArgumentException("Invalid stream id: " + streamId);
            }
            ByteBuffer data = frame.getByteBuffer();
            int length = Math.min(data.remaining(), Math.min(getMaxFrameSize(), maxLength));
            if (length == data.remaining()) {
                addFrame(accumulator, streamId, data, frame.isEndStream());
            } else {
                ByteBuffer part = data.slice(data.position(), length);
                data.position(data.position() + length);
                addFrame(accumulator, streamId, part, false);
            }
            return Frame.HEADER_LENGTH + length;
        }

        // A 9-byte buffer is added to the list as it is (Jetty copies buffers shorter than 128 bytes only into
        // a gathering buffer it already has, or when they fill more than 1/64 of their own capacity).
        private static void addFrame(RetainableByteBuffer.Mutable accumulator, int streamId, ByteBuffer data, boolean last) {
            int length = data.remaining();
            ByteBuffer header = ByteBuffer.allocate(Frame.HEADER_LENGTH)
                    .putInt(((length & 0xFF_FF_FF) << 8) | (FrameType.DATA.getType() & 0xFF))
                    .put((byte) (last ? Flags.END_STREAM : Flags.NONE))
                    .putInt(streamId)
                    .flip();
            accumulator.add(header);
            if (length > 0) {
                accumulator.add(data);
            }
        }
    }
}
