package io.h2bench.client.direct;

import io.h2bench.client.wire.WireRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.util.BufferUtil;

/**
 * A connection of the sampler's own ({@code Http11Connection}, {@code Http2FrameConnection}) and who
 * reads it: Jetty's selector, the thread that waits for the exchange it sent ({@link CallerReads}), or
 * no one while nothing is in flight, as HttpClient4's pooled sockets. Both readers run the same
 * parse, so what a sample records does not depend on who read it; the subclass says what a read
 * means for its protocol. The reader changes under the connection's lock, and only one reads at a time.
 * <p>
 * Under TLS a waiting thread reads only while no TLS handshake is under way anywhere in the client
 * ({@link WireRegistry#noHandshakeUnderWay}): at 400 users, 400 threads decrypting before the JIT had
 * compiled the cipher starved the selectors' handshakes (no samples for 12 s, connect timeouts).
 * While users connect, the selectors read, as they did for all TLS before 27 November 2026.
 */
public abstract class CallerReadConnection extends AbstractConnection.NonBlocking implements CallerReads.Reading {

    /** What {@link #readAvailable} stopped at, besides a fill's 0 (nothing more now) or -1 (the server's end). */
    private static final int WENT_IDLE = 1;
    private static final int ENDED = 2;

    private enum Reader {
        /** Jetty's selector: fill interest registered, or its thread reading. */
        SELECTOR,
        /** The thread waiting for the exchange in flight. */
        CALLER,
        /** A thread about to send on the idle connection, reading what came meanwhile ({@link #readWhatCame}). */
        SENDER,
        /** Nothing in flight, and no one reading. */
        NONE
    }

    protected final ReadBuffer input;
    /**
     * The socket a waiting thread sleeps on (under TLS too); null when there is none to sleep on, as
     * under an origin's TLS inside a proxy's, where the selector reads.
     */
    private final SocketChannel socket;
    /** Under TLS: whether the waiting thread may read now (no handshake under way for the selectors). */
    private final BooleanSupplier tlsCallerReads;
    // Under this connection's lock:
    private Reader reader = Reader.SELECTOR;
    private CallerReads caller;
    /** The exchange the caller reads for. */
    private DirectExchange callerExchange;

    /** {@code registry}: the client's connections, which say when no TLS handshake is under way. */
    protected CallerReadConnection(EndPoint endPoint, Executor executor, ByteBufferPool pool, WireRegistry registry) {
        super(endPoint, executor);
        this.input = new ReadBuffer(pool);
        this.socket = socketUnder(endPoint);
        this.tlsCallerReads = endPoint instanceof SslConnection.SslEndPoint ? registry::noHandshakeUnderWay : () -> true;
    }

    private static SocketChannel socketUnder(EndPoint endPoint) {
        EndPoint network = endPoint instanceof SslConnection.SslEndPoint tls ? tls.getSslConnection().getEndPoint() : endPoint;
        return network instanceof SocketChannelEndPoint plain ? plain.getChannel() : null;
    }

    /** Parses what {@code in} holds; true when the connection went idle there and stopped reading ({@link #stopReading}). */
    protected abstract boolean parse(ByteBuffer in) throws IOException;

    /** The server closed its side. */
    protected abstract void endOfInput();

    /** Reading or parsing failed: the exchanges fail and the connection closes. */
    protected abstract void readFailed(Throwable failure);

    /** Under the lock: an exchange is in flight, so someone must read. */
    protected abstract boolean busy();

    /**
     * Fills {@code in} and parses until the socket has nothing more (0), the server closed its side
     * (-1), the connection went idle ({@link #WENT_IDLE}) or {@code until} has ended ({@link #ENDED}).
     */
    private int readAvailable(ByteBuffer in, DirectExchange until) throws IOException {
        while (true) {
            if (!in.hasRemaining()) {
                BufferUtil.clear(in);
            }
            int filled = getEndPoint().fill(in);
            if (filled <= 0) {
                return filled;
            }
            if (parse(in)) {
                return WENT_IDLE;
            }
            if (until != null && until.finished()) {
                return ENDED;
            }
        }
    }

    /** Reads and parses until the socket has nothing more ({@link ReadBuffer} says why the buffer goes back first). */
    @Override
    public final void onFillable() {
        ByteBuffer in = input.take();
        try {
            int read = readAvailable(in, null);
            if (read == WENT_IDLE) {
                return; // no one reads on
            }
            if (read < 0) {
                endOfInput();
            }
            input.releaseIfParsed();
            if (read == 0 && selectorReadsOn()) {
                fillInterested();
            }
        } catch (Throwable failure) {
            input.releaseIfParsed();
            readFailed(failure);
        }
    }

    /** The selector read all there was: it reads on while an exchange is in flight (or under TLS), else no one does. */
    private synchronized boolean selectorReadsOn() {
        if (!getEndPoint().isOpen()) {
            return false;
        }
        if (socket != null && !busy()) {
            reader = Reader.NONE;
            return false;
        }
        return true;
    }

    /** Under the lock, before sending on the connection: whether it was idle, and is now the sender's to read ({@link #readWhatCame}). */
    protected final boolean takeIdle() {
        if (reader != Reader.NONE) {
            return false;
        }
        reader = Reader.SENDER;
        return true;
    }

    /**
     * The sender reads, without waiting, what came while no one read (on HTTP/2 a server's PING,
     * SETTINGS or GOAWAY; on HTTP/1.1 nothing may come, and the parse closes the connection if it
     * did); false when the connection ended meanwhile. Only after {@link #takeIdle}.
     */
    protected final boolean readWhatCame() {
        try {
            if (readAvailable(input.take(), null) < 0) {
                endOfInput();
                return false;
            }
            return true;
        } catch (Throwable failure) {
            readFailed(failure);
            return false;
        } finally {
            input.releaseIfParsed();
        }
    }

    /**
     * Under the lock, as {@code next} is about to be written on a connection that was idle (or the
     * sender's): who reads its response. True when Jetty's selector must be asked to, by
     * {@link #fillInterested()} once the lock is let go.
     */
    protected final boolean chooseReader(DirectExchange next) {
        if (reader != Reader.NONE && reader != Reader.SENDER) {
            return false;
        }
        caller = socket == null || !tlsCallerReads.getAsBoolean() ? null : CallerReads.claim(next.request(), this);
        callerExchange = caller != null ? next : null;
        reader = caller != null ? Reader.CALLER : Reader.SELECTOR;
        return caller == null;
    }

    /**
     * A reply ended at the last byte read and nothing more may come: no one reads on. Called before
     * the exchange ends, since the user's next request may find the connection free at once: it must
     * find it idle (and the buffer given back), not still read.
     */
    public final synchronized void stopReading() {
        input.releaseIfParsed();
        reader = Reader.NONE;
        caller = null;
        callerExchange = null;
    }

    /**
     * The waiting thread reads until its exchange has ended, as the selector would, sleeping on the
     * socket in between ({@link CallerReads#awaitReadable}).
     */
    @Override
    public final void readAsCaller(CallerReads reads) {
        DirectExchange mine;
        synchronized (this) {
            mine = reader == Reader.CALLER ? callerExchange : null;
        }
        boolean idle = false;
        try {
            while (mine != null && !mine.finished()) {
                int read = readAvailable(input.take(), mine);
                idle = read == WENT_IDLE;
                if (read < 0) {
                    endOfInput(); // the close ends what is still in flight
                }
                if (read != 0) {
                    break;
                }
                // Not held while asleep: the pool keeps 8 buffers a size, and 400 sleeping users
                // holding one each made every read allocate a new one.
                input.releaseIfParsed();
                if (!reads.awaitReadable(socket)) {
                    break;
                }
            }
        } catch (Throwable failure) {
            readFailed(failure);
        } finally {
            reads.quiet(socket);
            if (!idle) {
                // When idle, another thread may already read the connection and use the buffer.
                input.releaseIfParsed();
                handBack();
            }
        }
    }

    @Override
    public final void unclaimed() {
        handBack();
    }

    /**
     * The caller or the sender stopped reading: what is still in flight (another thread's exchange,
     * a push, its own when interrupted) goes to the selector, else no one reads.
     */
    protected final void handBack() {
        boolean watch;
        synchronized (this) {
            if (reader != Reader.CALLER && reader != Reader.SENDER) {
                return;
            }
            caller = null;
            callerExchange = null;
            watch = busy() && getEndPoint().isOpen();
            reader = watch ? Reader.SELECTOR : Reader.NONE;
        }
        if (watch) {
            fillInterested();
        }
    }

    /** Wakes the thread reading for {@code ended} when another thread ended it (a timeout, the stop button, a write's end, a close). */
    protected final void wakeCaller(DirectExchange ended) {
        CallerReads reading;
        synchronized (this) {
            reading = ended == null || ended == callerExchange ? caller : null;
        }
        if (reading != null) {
            reading.wakeup();
        }
    }
}
