package io.h2bench.client.h2;

import io.h2bench.client.direct.CallerReadConnection;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.wire.WireConnection;
import io.h2bench.client.wire.WireRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.parser.Parser;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;

/**
 * One HTTP/2 connection of one user to one origin (h2c with prior knowledge, or h2 that ALPN chose),
 * driven with Jetty's frame codec ({@link Parser}, whose frames {@link ServerFrames} acts on;
 * {@link Http2FrameWriter}) on the end point Jetty's
 * {@code ClientConnector} opened: no {@code HTTP2Session}, whose stream and flusher machinery cost the
 * sampler most of its HTTP/2 CPU (issue 20). It starts as a browser does (the preface, the user's
 * preset's SETTINGS and window before the first request, not after the
 * server's SETTINGS), carries one stream until the server's SETTINGS say how many, keeps
 * more requests waiting in order, and controls the flow of what it receives as Jetty's client does
 * ({@link ReceiveWindows}). Who reads is {@link CallerReadConnection}'s: the thread waiting for the
 * one stream in flight reads the frames until its stream ends; a page's resources and pushes stay
 * with Jetty's selector, and the next sender reads what came while the connection idled.
 * After an h2c Upgrade (RFC 7540 3.2) it goes on on the socket where the own HTTP/1.1 read the 101
 * ({@link Connection.UpgradeTo}): the upgraded request is stream 1, half-closed on our side.
 */
public final class Http2FrameConnection extends CallerReadConnection implements Connection.UpgradeTo {

    /** Who pools the connection: told when it opens, and when it takes no new stream any more. */
    interface Owner {
        void opened(Http2FrameConnection connection);

        /** No new stream goes here (GOAWAY, refused stream, closed); {@code unsent} never left and may go elsewhere. */
        void retired(Http2FrameConnection connection, List<Http2Exchange> unsent);
    }

    private final Owner owner;
    private final WireConnection wire;
    private final Parser parser;
    private final Http2FrameWriter writer;
    private final ReceiveWindows windows;
    /** Under this connection's lock. */
    private final Http2Streams streams = new Http2Streams();
    /** The exchange whose request asked for the h2c Upgrade: its response comes on stream 1; null on other connections. */
    private final Http2Exchange upgraded;
    /** What the HTTP/1.1 connection read after the 101, parsed when this one opens. */
    private ByteBuffer readWithUpgrade = BufferUtil.EMPTY_BUFFER;

    Http2FrameConnection(EndPoint endPoint, Executor executor, ByteBufferPool pool, WireRegistry registry, WireConnection wire,
                         BrowserPreset.Http2 preset, Owner owner, Http2Exchange upgraded) {
        super(endPoint, executor, pool, registry);
        this.owner = owner;
        this.upgraded = upgraded;
        this.wire = wire;
        this.windows = new ReceiveWindows(preset);
        this.writer = new Http2FrameWriter(this, endPoint, pool, preset, this::unencodable);
        this.parser = PresetFrameParser.create(pool, preset, new ServerFrames(this, streams, writer, windows, wire, preset));
    }

    @Override
    public void onUpgradeTo(ByteBuffer buffer) {
        readWithUpgrade = buffer == null ? BufferUtil.EMPTY_BUFFER : buffer;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        synchronized (this) {
            writer.queueStart(windows, upgraded);
            streams.upgraded(upgraded);
        }
        if (upgraded != null) {
            upgraded.upgradedOn(this);
            // The server's first frames, read with its 101: parsed before anyone reads the socket again.
            parser.parse(readWithUpgrade);
            readWithUpgrade = BufferUtil.EMPTY_BUFFER;
        }
        fillInterested();
        // The owner sends the requests that waited for this connection, so their HEADERS leave in the
        // preface's write, as browsers and curl send them. Written apart, nginx takes the preface alone,
        // then puts the response's HEADERS into the 16 kB TLS record of its first DATA: the first byte
        // arrived a round trip late (PhasesBesideCurlTest).
        owner.opened(this);
        if (getEndPoint().isOpen()) {
            writer.iterate(); // the preface alone, when no request waited
        }
    }

    /**
     * Sends {@code exchange} on a new stream, or keeps it waiting for one; false when the connection
     * takes no new stream. On an idle connection the sender first reads what came meanwhile (a
     * GOAWAY sends the request elsewhere), then the thread waiting for it may read its response.
     */
    boolean send(Http2Exchange exchange) {
        boolean idle;
        synchronized (this) {
            if (streams.retired()) {
                return false;
            }
            idle = takeIdle();
        }
        if (idle && !readWhatCame()) {
            handBack();
            return false;
        }
        boolean sent;
        boolean watch = false;
        synchronized (this) {
            sent = !streams.retired();
            if (sent) {
                streams.enqueue(exchange);
                streams.openWaiting(this::open);
                watch = chooseReader(exchange);
            }
        }
        if (!sent) {
            handBack();
            return false;
        }
        if (watch) {
            fillInterested();
        }
        writer.iterate();
        return true;
    }

    /** Queues the HEADERS of a stream the server's limit lets open (under the lock). */
    void open(Http2Exchange next) {
        writer.queue(next);
        next.opened(this, wire);
    }

    /** The exchange ended: its stream's slot goes to the next waiting request. */
    void ended(Http2Exchange exchange) {
        boolean held;
        boolean idle;
        synchronized (this) {
            held = streams.ended(exchange);
            if (held) {
                writer.forget(exchange);
                streams.openWaiting(this::open);
            }
            idle = held && streams.retired() && streams.noneOpen();
        }
        wakeCaller(exchange);
        if (idle) {
            close();
        } else if (held) {
            writer.iterate();
        }
    }

    /** Resets the exchange's stream (the response timeout, the stop button). */
    void cancel(Http2Exchange exchange) {
        synchronized (this) {
            if (!streams.holds(exchange)) {
                return;
            }
            writer.queue(new ResetFrame(exchange.streamId, ErrorCode.CANCEL_STREAM_ERROR.code));
        }
        writer.iterate();
    }

    @Override
    protected boolean parse(ByteBuffer in) {
        parser.parse(in);
        return false; // HTTP/2 goes idle between reads, when no stream is open (busy)
    }

    @Override
    protected void endOfInput() {
        close();
    }

    @Override
    protected void readFailed(Throwable failure) {
        getEndPoint().close(failure);
    }

    @Override
    protected boolean busy() {
        return streams.busy();
    }

    /** Takes no new stream; what waited for one goes back to the owner, which sends it elsewhere. */
    void retire() {
        List<Http2Exchange> unsent;
        synchronized (this) {
            unsent = streams.retire();
        }
        if (unsent != null) {
            owner.retired(this, unsent);
        }
    }

    void closeWhenIdle() {
        boolean idle;
        synchronized (this) {
            idle = streams.noneOpen();
        }
        if (idle) {
            close();
        }
    }

    /** A request's HEADERS could not be encoded: the HPACK table may be out of step with the server's, so the connection ends. */
    private void unencodable(Http2Exchange exchange) {
        getExecutor().execute(() -> {
            exchange.fail(new IOException("the request's header block is larger than HTTP/2 lets this client send"));
            close();
        });
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        failAll(timeout);
        return true;
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        wakeCaller(null);
        writer.abort(cause != null ? cause : new ClosedChannelException());
        retire();
        failAll(cause != null ? cause : new ClosedChannelException());
    }

    private void failAll(Throwable failure) {
        List<Http2Exchange> open;
        synchronized (this) {
            open = streams.allOpen();
        }
        open.forEach(exchange -> exchange.fail(failure));
    }
}
