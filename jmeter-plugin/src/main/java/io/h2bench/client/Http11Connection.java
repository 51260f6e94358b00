package io.h2bench.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpGenerator;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * One HTTP/1.1 connection of one user to one origin, driven with Jetty's own codec ({@link HttpGenerator};
 * {@link HttpParser} in {@link Http11ResponseParser}) on the end point Jetty's {@code ClientConnector}
 * opened (under TLS when the origin is https): one exchange at a time, kept alive between them as the
 * response allows.
 * <p>
 * Who reads: the thread that waits for the exchange, when it sent it on a plain socket
 * ({@link CallerReads}); else Jetty's selector, whose thread runs each read itself (parsing never
 * blocks: the recorder takes times and copies bytes). An idle connection is read by no one, as
 * HttpClient4's pooled sockets: {@link #reusable()} looks before it carries the next request.
 */
final class Http11Connection extends AbstractConnection.NonBlocking implements CallerReads.Reading {

    /** RFC 9110 section 9.2.2: the methods a client may send again by itself. */
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");
    /** Room for a request's header block; a larger one fails the exchange with the generator's error. */
    private static final int HEADER_BYTES = 16 * 1024;

    /** Who pools the connection: told when it opens, is free again, or closes. */
    interface Owner {
        void opened(Http11Connection connection);

        void released(Http11Connection connection, boolean reusable);

        void closed(Http11Connection connection, Throwable cause);
    }

    private final Owner owner;
    private final WireConnection wire;
    private final Http11ResponseParser responses = new Http11ResponseParser(this);
    private final HttpGenerator generator = new HttpGenerator();
    private final ReadBuffer input;
    /** The request header block's room, reused: one exchange at a time, the next only after the write returned. */
    private ByteBuffer header;
    private volatile Http11Exchange exchange;
    private volatile boolean persistentRequest;
    /** The connection carried an exchange before the one on it (it was kept alive). */
    private volatile boolean carried;
    /**
     * The socket, for a waiting thread to sleep on; null under TLS, which stays with the selector: at
     * 400 users, 400 threads decrypting before the JIT had compiled the cipher starved the selectors'
     * handshakes (no samples for 12 s, connect timeouts) where two selector threads decrypt in turn.
     */
    private final SocketChannel socket;
    // Under this connection's lock:
    private Reader reader = Reader.SELECTOR;
    private CallerReads caller;
    /** The exchange the caller reads for. */
    private Http11Exchange callerExchange;

    private enum Reader {
        /** Jetty's selector: fill interest registered, or its thread reading. */
        SELECTOR,
        /** The thread waiting for the exchange in flight. */
        CALLER,
        /** No exchange in flight, and no one reading. */
        NONE
    }

    Http11Connection(EndPoint endPoint, Executor executor, ByteBufferPool pool, WireConnection wire, Owner owner) {
        super(endPoint, executor);
        this.input = new ReadBuffer(pool);
        this.wire = wire;
        this.owner = owner;
        this.socket = endPoint instanceof SocketChannelEndPoint plain ? plain.getChannel() : null;
    }

    /** The exchange in flight, or null. */
    Http11Exchange exchange() {
        return exchange;
    }

    WireConnection wire() {
        return wire;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        fillInterested();
        owner.opened(this);
    }

    /** Writes {@code next}'s request; the connection is free (no exchange on it). */
    void send(Http11Exchange next) {
        responses.expect(next);
        boolean watch = false;
        synchronized (this) {
            exchange = next;
            if (reader == Reader.NONE) {
                caller = socket == null ? null : CallerReads.claim(next.request(), this);
                callerExchange = caller != null ? next : null;
                reader = caller != null ? Reader.CALLER : Reader.SELECTOR;
                watch = caller == null;
            }
        }
        if (watch) {
            fillInterested();
        }
        generator.reset();
        next.assigned(this, wire);
        Http11Exchange.Encoded encoded;
        try {
            encoded = next.encode(generator, emptyHeaderRoom());
        } catch (IOException | RuntimeException unencodable) {
            next.fail(unencodable);
            return;
        }
        persistentRequest = encoded.persistent();
        Callback written = Callback.from(next::requestWritten, failure -> next.fail(notReached(next, failure)));
        getEndPoint().write(written, encoded.buffers());
    }

    private ByteBuffer emptyHeaderRoom() {
        if (header == null) {
            header = BufferUtil.allocate(HEADER_BYTES);
        }
        BufferUtil.clear(header);
        return header;
    }

    /** {@code ended} is over: the connection carries the next one, or closes. */
    void release(Http11Exchange ended, boolean reusable) {
        CallerReads reading;
        synchronized (this) {
            if (exchange != ended) {
                return;
            }
            exchange = null;
            reading = caller;
        }
        if (reading != null) {
            reading.wakeup(); // when another thread ended it (a timeout, the stop button, the request's write)
        }
        boolean keep = reusable && persistentRequest && getEndPoint().isOpen();
        carried |= keep;
        if (!keep) {
            close();
        }
        owner.released(this, keep);
    }

    /** Reads and parses until the socket has nothing more ({@link ReadBuffer} says why the buffer goes back first). */
    @Override
    public void onFillable() {
        ByteBuffer in = input.take();
        try {
            while (true) {
                if (!in.hasRemaining()) {
                    BufferUtil.clear(in);
                }
                int filled = getEndPoint().fill(in);
                if (filled < 0) {
                    responses.endOfInput();
                    input.releaseIfParsed();
                    return;
                }
                if (filled == 0) {
                    input.releaseIfParsed();
                    if (getEndPoint().isOpen()) {
                        fillInterested();
                    }
                    return;
                }
                if (responses.parse(in)) {
                    return; // idle: no one reads on
                }
            }
        } catch (Throwable failure) {
            input.releaseIfParsed();
            failAndClose(failure);
        }
    }

    /**
     * A final response was parsed to the last byte read: nothing more may come on HTTP/1.1, so no one
     * reads on. Done before the exchange ends, since the user's next request may find the connection
     * free at once: it must find it idle (and the buffer given back), not still the selector's.
     */
    synchronized void stopReading() {
        input.releaseIfParsed();
        reader = Reader.NONE;
        caller = null;
        callerExchange = null;
    }

    /**
     * The waiting thread reads until its exchange has ended: on a plain socket as the selector would,
     * sleeping on the socket in between ({@link CallerReads#awaitReadable}).
     */
    @Override
    public void readAsCaller(CallerReads reads) {
        Http11Exchange mine;
        synchronized (this) {
            mine = callerExchange;
        }
        boolean idle = false;
        try {
            while (!idle && mine != null && !mine.finished()) {
                ByteBuffer in = input.take();
                if (!in.hasRemaining()) {
                    BufferUtil.clear(in);
                }
                int filled = getEndPoint().fill(in);
                if (filled < 0) {
                    responses.endOfInput();
                } else if (filled > 0) {
                    idle = responses.parse(in);
                } else {
                    // Not held while asleep: the pool keeps 8 buffers a size, and 400 sleeping users
                    // holding one each made every read allocate a new one.
                    input.releaseIfParsed();
                    if (!reads.awaitReadable(socket)) {
                        break;
                    }
                }
            }
        } catch (Throwable failure) {
            failAndClose(failure);
        } finally {
            reads.quiet(socket);
            if (!idle) {
                input.releaseIfParsed();
                handBack();
            }
        }
    }

    @Override
    public void unclaimed() {
        handBack();
    }

    /** The caller stopped reading: an exchange still in flight (the next one, or its own if interrupted) goes to the selector. */
    private void handBack() {
        boolean watch;
        synchronized (this) {
            caller = null;
            callerExchange = null;
            watch = exchange != null && getEndPoint().isOpen();
            reader = watch ? Reader.SELECTOR : Reader.NONE;
        }
        if (watch) {
            fillInterested();
        }
    }

    /**
     * Before an idle connection carries the next request: false, and closed, when the server closed it
     * or sent bytes meanwhile (no one read it while idle). HttpClient4 checks its pooled sockets likewise.
     */
    boolean reusable() {
        synchronized (this) {
            if (reader != Reader.NONE) {
                return getEndPoint().isOpen();
            }
        }
        ByteBuffer in = input.take();
        int filled;
        try {
            filled = getEndPoint().fill(in);
        } catch (IOException broken) {
            filled = -1;
        } finally {
            BufferUtil.clear(in);
            input.releaseIfParsed();
        }
        if (filled == 0) {
            return true;
        }
        close();
        return false;
    }

    private void failAndClose(Throwable failure) {
        Http11Exchange current = exchange;
        if (current != null) {
            current.fail(notReached(current, failure));
        }
        close();
    }

    /** {@code failure}, or a {@link StaleConnectionException} when a kept-alive connection failed before any of the response. */
    Throwable notReached(Http11Exchange current, Throwable failure) {
        boolean stale = carried && !responses.responseBytes() && failure instanceof IOException
                && IDEMPOTENT.contains(current.request().method());
        return stale ? new StaleConnectionException(failure) : failure;
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        Http11Exchange current = exchange;
        if (current != null) {
            current.fail(timeout);
        }
        return true;
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        Http11Exchange current = exchange;
        if (current != null) {
            current.fail(cause != null ? cause : new ClosedChannelException());
        }
        CallerReads reading;
        synchronized (this) {
            reading = caller;
        }
        if (reading != null) {
            reading.wakeup();
        }
        owner.closed(this, cause);
    }
}
