package io.h2bench.client.h1;

import io.h2bench.client.direct.CallerReadConnection;
import io.h2bench.client.exchange.StaleConnectionException;
import io.h2bench.client.wire.WireConnection;
import io.h2bench.client.wire.WireRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpGenerator;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * One HTTP/1.1 connection of one user to one origin, driven with Jetty's own codec ({@link HttpGenerator};
 * {@link HttpParser} in {@link Http11ResponseParser}) on the end point Jetty's {@code ClientConnector}
 * opened (under TLS when the origin is https): one exchange at a time, kept alive between them as the
 * response allows. Who reads it is {@link CallerReadConnection}'s: the waiting thread (under TLS
 * once no handshake is under way), else Jetty's selector, and no one while idle: {@link #reusable()}
 * looks before it carries the next request. On the server's 101 to an h2c Upgrade it gives the
 * socket, and what it read after the 101, to the connection its owner makes ({@link Connection.UpgradeFrom}).
 */
final class Http11Connection extends CallerReadConnection implements Connection.UpgradeFrom {

    /** RFC 9110 section 9.2.2: the methods a client may send again by itself. */
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");
    /** Room for a request's header block; a larger one fails the exchange with the generator's error. */
    private static final int HEADER_BYTES = 16 * 1024;

    /** Who pools the connection: told when it opens, is free again, or closes. */
    interface Owner {
        void opened(Http11Connection connection);

        void released(Http11Connection connection, boolean reusable);

        void closed(Http11Connection connection, Throwable cause);

        /** The h2c Upgrade's {@code HTTP2-Settings} value; null when no request here may ask for the upgrade. */
        String upgradeSettings();

        /** The server switched to h2c for {@code exchange}: the HTTP/2 connection that takes the socket on. */
        Connection upgraded(Http11Connection connection, Http11Exchange exchange);
    }

    private final Owner owner;
    private final WireConnection wire;
    private final boolean absoluteForm;
    private final Http11ResponseParser responses = new Http11ResponseParser(this);
    private final HttpGenerator generator = new HttpGenerator();
    /** The request header block's room, reused: one exchange at a time, the next only after the write returned. */
    private ByteBuffer header;
    private volatile Http11Exchange exchange;
    private volatile boolean persistentRequest;
    /** The connection carried an exchange before the one on it (it was kept alive). */
    private volatile boolean carried;
    /** What was read after a 101, for the connection that takes the socket on. */
    private ByteBuffer readAfterSwitch;

    /** {@code absoluteForm}: to a proxy, the request line names the whole URI. */
    Http11Connection(EndPoint endPoint, Executor executor, ByteBufferPool pool, WireRegistry registry, WireConnection wire,
                     Owner owner, boolean absoluteForm) {
        super(endPoint, executor, pool, registry);
        this.wire = wire;
        this.owner = owner;
        this.absoluteForm = absoluteForm;
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
        boolean watch;
        synchronized (this) {
            exchange = next;
            watch = chooseReader(next);
        }
        if (watch) {
            fillInterested();
        }
        generator.reset();
        next.assigned(this, wire);
        Http11Exchange.Encoded encoded;
        try {
            encoded = next.encode(generator, emptyHeaderRoom(), absoluteForm, next.asksForUpgrade() ? owner.upgradeSettings() : null);
        } catch (IOException | RuntimeException unencodable) {
            next.fail(unencodable);
            return;
        }
        persistentRequest = encoded.persistent();
        Callback written = Callback.from(next::requestWritten, failure -> next.fail(notReached(next, failure)));
        ByteBuffer body = encoded.waitingBody();
        if (body == null) {
            getEndPoint().write(written, encoded.buffers());
            return;
        }
        // Expect: 100-continue: the header block alone, the body once a 100 Continue or the wait allows.
        Callback headersWritten = Callback.from(() -> next.headersWritten(() -> getEndPoint().write(written, body)),
                failure -> next.fail(notReached(next, failure)));
        getEndPoint().write(headersWritten, encoded.buffers());
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
        synchronized (this) {
            if (exchange != ended) {
                return;
            }
            exchange = null;
        }
        wakeCaller(ended);
        boolean keep = reusable && persistentRequest && getEndPoint().isOpen();
        carried |= keep;
        if (!keep) {
            close();
        }
        owner.released(this, keep);
    }

    /**
     * The server answered {@code switching}'s Upgrade with 101: the exchange goes on as HTTP/2 on this
     * socket, {@code rest} (what was read after the 101) its first bytes; this connection leaves its
     * owner's pool, closed but for the socket, and no one reads it any more.
     */
    void switchToHttp2(Http11Exchange switching, ByteBuffer rest) {
        readAfterSwitch = ByteBuffer.allocate(rest.remaining()).put(rest).flip();
        synchronized (this) {
            exchange = null; // its response is stream 1's now: the close must not fail it
        }
        stopReading();
        switching.whenRequestWritten(() -> getEndPoint().upgrade(owner.upgraded(this, switching)));
    }

    @Override
    public ByteBuffer onUpgradeFrom() {
        ByteBuffer rest = readAfterSwitch;
        readAfterSwitch = null;
        return rest;
    }

    @Override
    protected boolean parse(ByteBuffer in) {
        return responses.parse(in);
    }

    @Override
    protected void endOfInput() {
        responses.endOfInput();
    }

    @Override
    protected void readFailed(Throwable failure) {
        failAndClose(failure);
    }

    @Override
    protected boolean busy() {
        return exchange != null;
    }

    /**
     * Before an idle connection carries the next request: false, and closed, when the server closed it
     * or sent bytes meanwhile (no one read it while idle). HttpClient4 checks its pooled sockets likewise.
     */
    boolean reusable() {
        synchronized (this) {
            if (!takeIdle()) {
                return getEndPoint().isOpen();
            }
        }
        // A server sends nothing unasked on HTTP/1.1: the parse closes the connection on any byte, and on its end.
        boolean open = readWhatCame() && getEndPoint().isOpen();
        handBack();
        return open;
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
        wakeCaller(null);
        owner.closed(this, cause);
    }
}
