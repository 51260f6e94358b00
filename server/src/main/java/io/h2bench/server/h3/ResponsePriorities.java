package io.h2bench.server.h3;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http3.Http3UnknownFrame;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamPriority;
import io.netty.util.ReferenceCountUtil;

/**
 * RFC 9218's priorities of one QUIC connection's responses, handed to quiche's scheduler, which sends
 * the most urgent first, by stream id within an urgency, and incremental ones in turn after the others
 * of their urgency, as nghttp3 (ngtcp2's server) does. A request's {@code priority} header sets its
 * stream's; a PRIORITY_UPDATE frame on the client's control stream (which Netty hands over as an
 * unknown frame) replaces it, even one that came before the request. Without either: urgency 3, not
 * incremental, so responses leave one after another by stream id. Netty's event loop only.
 */
final class ResponsePriorities extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ResponsePriorities.class);
    /** RFC 9218 §7.1: PRIORITY_UPDATE for a request stream (0xf0701, for a push, has nothing to apply to here). */
    static final long PRIORITY_UPDATE_REQUEST = 0xf0700;

    private final Map<Long, QuicStreamChannel> open = new HashMap<>();
    /** Streams a PRIORITY_UPDATE named, open or not yet: their header's priority is not applied. */
    private final Map<Long, QuicStreamPriority> updated = new HashMap<>();

    /** A request stream opened: the priority a PRIORITY_UPDATE gave it already, or the default until its header. */
    void opened(QuicStreamChannel stream) {
        open.put(stream.streamId(), stream);
        stream.updatePriority(updated.getOrDefault(stream.streamId(), PriorityField.DEFAULT));
    }

    /** The request's {@code priority} field lines arrived (none: the default stays). */
    void requested(QuicStreamChannel stream, List<? extends CharSequence> priority) {
        if (!priority.isEmpty() && !updated.containsKey(stream.streamId())) {
            stream.updatePriority(PriorityField.parse(priority));
        }
    }

    void closed(QuicStreamChannel stream) {
        open.remove(stream.streamId());
        updated.remove(stream.streamId());
    }

    /** The client's control stream: PRIORITY_UPDATE frames; the codec has handled the others. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http3UnknownFrame frame && frame.type() == PRIORITY_UPDATE_REQUEST) {
                update(frame.content());
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void update(ByteBuf payload) {
        long streamId = varint(payload);
        if (streamId < 0 || streamId % 4 != 0) {
            return; // truncated, or no client-initiated request stream: nothing to reprioritize
        }
        QuicStreamChannel stream = open.get(streamId);
        if (stream == null && updated.size() >= Http3Connector.MAX_CONCURRENT_STREAMS) {
            return; // updates for streams that never open would otherwise pile up
        }
        QuicStreamPriority priority = PriorityField.parse(payload.toString(StandardCharsets.US_ASCII));
        updated.put(streamId, priority);
        if (stream != null) {
            stream.updatePriority(priority);
        }
    }

    /** A QUIC variable-length integer (RFC 9000 §16), or -1 if the payload ends inside it. */
    private static long varint(ByteBuf in) {
        if (!in.isReadable()) {
            return -1;
        }
        int length = 1 << ((in.getUnsignedByte(in.readerIndex()) >> 6) & 3);
        if (in.readableBytes() < length) {
            return -1;
        }
        long value = in.readUnsignedByte() & 0x3f;
        for (int i = 1; i < length; i++) {
            value = (value << 8) | in.readUnsignedByte();
        }
        return value;
    }

    /** The codec's own report of a control-stream error; it closes the connection itself. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("h3 control stream of {} failed", ctx.channel().parent().remoteAddress(), cause);
    }
}
