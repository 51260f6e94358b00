package io.h2bench.client.h2;

import io.h2bench.client.exchange.FailureMessages;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.wire.WireConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.RetryableStreamException;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PingFrame;
import org.eclipse.jetty.http2.frames.PushPromiseFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.http2.frames.WindowUpdateFrame;
import org.eclipse.jetty.http2.parser.Parser;
import org.eclipse.jetty.util.BufferUtil;

/**
 * What the server's frames do on one {@link Http2FrameConnection}, as Jetty's {@link Parser} hands
 * them over: a stream's HEADERS, DATA and RST_STREAM go to its exchange, SETTINGS, PING and
 * WINDOW_UPDATE are answered or applied, a PUSH_PROMISE is accepted as the user's preset says, and
 * GOAWAY or a broken protocol retire the connection. Under the connection's lock, as the rest of it.
 */
final class ServerFrames implements Parser.Listener {

    private final Http2FrameConnection connection;
    /** The connection's, under its lock. */
    private final Http2Streams streams;
    private final Http2FrameWriter writer;
    private final ReceiveWindows windows;
    private final WireConnection wire;
    private final BrowserPreset.Http2 preset;

    ServerFrames(Http2FrameConnection connection, Http2Streams streams, Http2FrameWriter writer, ReceiveWindows windows,
                 WireConnection wire, BrowserPreset.Http2 preset) {
        this.connection = connection;
        this.streams = streams;
        this.writer = writer;
        this.windows = windows;
        this.wire = wire;
        this.preset = preset;
    }

    /** The exchange of stream {@code id}, or null; {@code remoteEnd}: the server ended its side of it. */
    private Http2Exchange stream(int id, boolean remoteEnd) {
        synchronized (connection) {
            Http2Exchange exchange = streams.get(id);
            if (exchange != null && remoteEnd) {
                exchange.remotelyClosed = true;
            }
            return exchange;
        }
    }

    @Override
    public void onHeaders(HeadersFrame frame) {
        Http2Exchange exchange = stream(frame.getStreamId(), frame.isEndStream());
        if (exchange != null) {
            exchange.headers(frame.getMetaData(), frame.isEndStream());
        }
    }

    @Override
    public void onData(DataFrame frame) {
        Http2Exchange exchange = stream(frame.getStreamId(), frame.isEndStream());
        if (exchange != null) {
            exchange.content(frame.getByteBuffer(), false);
        }
        // Consumed at once (the recorder copies): the windows reopen as Jetty's buffering strategy reopens them.
        int length = frame.flowControlLength();
        synchronized (connection) {
            windows.consumed(writer, exchange, length);
        }
        writer.iterate();
        if (exchange != null && frame.isEndStream()) {
            exchange.content(BufferUtil.EMPTY_BUFFER, true);
        }
    }

    @Override
    public void onReset(ResetFrame frame) {
        Http2Exchange exchange = stream(frame.getStreamId(), true);
        if (exchange == null) {
            return;
        }
        if (frame.getError() == ErrorCode.REFUSED_STREAM_ERROR.code && !exchange.pushed()) {
            // RFC 9113 8.7: refused before processing. The retry and the next requests go to a new connection.
            connection.retire();
        }
        exchange.reset(frame.getError());
    }

    @Override
    public void onSettings(SettingsFrame frame) {
        if (frame.isReply()) {
            return;
        }
        synchronized (connection) {
            writer.peerSettings(frame.getSettings(), streams.openExchanges());
            streams.serverLimit(frame.getSettings().get(BrowserPreset.Http2.MAX_CONCURRENT_STREAMS));
            writer.queue(new SettingsFrame(Map.of(), true));
            streams.openWaiting(connection::open);
        }
        writer.iterate();
    }

    @Override
    public void onPing(PingFrame frame) {
        if (frame.isReply()) {
            return;
        }
        synchronized (connection) {
            writer.queue(new PingFrame(frame.getPayload(), true));
        }
        writer.iterate();
    }

    @Override
    public void onWindowUpdate(WindowUpdateFrame frame) {
        synchronized (connection) {
            Http2Exchange exchange = frame.getStreamId() == 0 ? null : streams.get(frame.getStreamId());
            if (frame.getStreamId() != 0 && exchange == null) {
                return;
            }
            writer.sendWindowUpdate(exchange, frame.getWindowDelta());
        }
        writer.iterate();
    }

    @Override
    public void onPushPromise(PushPromiseFrame frame) {
        Http2Exchange parent = stream(frame.getStreamId(), false);
        boolean accepted = false;
        synchronized (connection) {
            int promised = frame.getPromisedStreamId();
            if (parent != null && parent.request().acceptPush() && preset.acceptsPush(streams.pushesOpen())) {
                URI uri = frame.getMetaData().getHttpURI().toURI();
                streams.promised(promised, parent.pushed(uri, connection));
                accepted = true;
            } else {
                writer.queue(new ResetFrame(promised, ErrorCode.REFUSED_STREAM_ERROR.code));
            }
        }
        if (!accepted) {
            writer.iterate();
        }
    }

    @Override
    public void onGoAway(GoAwayFrame frame) {
        wire.goAwayReceived(frame);
        List<Http2Exchange> unprocessed;
        synchronized (connection) {
            unprocessed = streams.unprocessedAbove(frame.getLastStreamId());
        }
        connection.retire();
        // RFC 9113 6.8: never processed, so sent again (UnprocessedRequests) on a new connection.
        unprocessed.forEach(exchange -> exchange.fail(new RetryableStreamException()));
        connection.closeWhenIdle();
    }

    @Override
    public void onStreamFailure(int streamId, int error, String reason) {
        Http2Exchange exchange;
        synchronized (connection) {
            exchange = streams.get(streamId);
            writer.queue(new ResetFrame(streamId, error));
        }
        writer.iterate();
        if (exchange != null) {
            exchange.fail(FailureMessages.http2(error, reason));
        }
    }

    /** The server broke the protocol: no new stream here, and the GOAWAY saying why goes out before the close. */
    @Override
    public void onConnectionFailure(int error, String reason) {
        connection.retire();
        synchronized (connection) {
            writer.queue(new GoAwayFrame(0, error, reason == null ? null : reason.getBytes(StandardCharsets.UTF_8)));
            writer.closeAfterQueue(FailureMessages.http2(error, reason));
        }
        writer.iterate();
    }
}
