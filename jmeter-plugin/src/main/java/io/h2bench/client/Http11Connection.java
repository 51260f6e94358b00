package io.h2bench.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpGenerator;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * One HTTP/1.1 connection of one user to one origin, driven with Jetty's own codec
 * ({@link HttpGenerator}, {@link HttpParser}) on the end point Jetty's {@code ClientConnector}
 * opened (under TLS when the origin is https): one exchange at a time, kept alive between them as
 * the response allows. Parsing never blocks (the recorder takes times and copies bytes), so it is a
 * non-blocking connection: Jetty runs each read on the selector's thread instead of handing it to a
 * worker first, as the shared client's own HTTP/1.1 connections do (SharedClient).
 */
final class Http11Connection extends AbstractConnection.NonBlocking implements HttpParser.ResponseHandler {

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
    private final HttpParser parser = new HttpParser(this);
    private final HttpGenerator generator = new HttpGenerator();
    private final ReadBuffer input;
    /** The request header block's room, reused: one exchange at a time, the next only after the write returned. */
    private ByteBuffer header;
    private volatile Http11Exchange exchange;
    private volatile boolean persistentRequest;
    private int status;
    private String reason;
    private HttpVersion version;
    private HttpFields.Mutable fields;
    private boolean interim;

    Http11Connection(EndPoint endPoint, Executor executor, ByteBufferPool pool, WireConnection wire, Owner owner) {
        super(endPoint, executor);
        this.input = new ReadBuffer(pool);
        this.wire = wire;
        this.owner = owner;
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
        exchange = next;
        parser.reset();
        parser.setHeadResponse(next.head());
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
        getEndPoint().write(Callback.from(next::requestWritten, next::fail), encoded.buffers());
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
        if (exchange != ended) {
            return;
        }
        exchange = null;
        boolean keep = reusable && persistentRequest && getEndPoint().isOpen();
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
                    endOfInput();
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
                parse(in);
            }
        } catch (Throwable failure) {
            input.releaseIfParsed();
            failAndClose(failure);
        }
    }

    private void parse(ByteBuffer in) {
        while (in.hasRemaining()) {
            Http11Exchange current = exchange;
            if (current == null) {
                // Bytes while no request is out: nothing a server may send on HTTP/1.1.
                BufferUtil.clear(in);
                close();
                return;
            }
            parser.parseNext(in);
            if (parser.isComplete()) {
                messageDone(current);
            } else if (!in.hasRemaining()) {
                return;
            }
        }
    }

    private void messageDone(Http11Exchange current) {
        if (interim) {
            // A 100 Continue or 103 Early Hints: the final response follows on the same exchange.
            interim = false;
            parser.reset();
            parser.setHeadResponse(current.head());
            return;
        }
        current.responseEnded(Http11Exchange.keepsAlive(version, fields));
    }

    private void endOfInput() {
        Http11Exchange current = exchange;
        if (current != null && !parser.isComplete()) {
            // A body delimited by the connection's end completes here; anything else ended early.
            parser.atEOF();
            parser.parseNext(BufferUtil.EMPTY_BUFFER);
            if (parser.isComplete() && !interim) {
                current.responseEnded(false);
            } else {
                current.fail(new EofException("the server closed the connection before the response ended"));
            }
        }
        close();
    }

    private void failAndClose(Throwable failure) {
        Http11Exchange current = exchange;
        if (current != null) {
            current.fail(failure);
        }
        close();
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
        owner.closed(this, cause);
    }

    @Override
    public void startResponse(HttpVersion responseVersion, int responseStatus, String responseReason) {
        version = responseVersion;
        status = responseStatus;
        reason = responseReason;
        fields = HttpFields.build();
        interim = responseStatus >= 100 && responseStatus < 200 && responseStatus != 101;
        Http11Exchange current = exchange;
        if (!interim && current != null) {
            current.responseBegun();
        }
    }

    @Override
    public void parsedHeader(HttpField field) {
        if (!interim) {
            fields.add(field);
        }
    }

    @Override
    public boolean headerComplete() {
        Http11Exchange current = exchange;
        if (!interim && current != null) {
            current.responseHeaders(status, reason, version, fields);
        }
        return false;
    }

    @Override
    public boolean content(ByteBuffer content) {
        Http11Exchange current = exchange;
        if (current != null && content.hasRemaining()) {
            current.responseContent(content);
        }
        return false;
    }

    @Override
    public boolean contentComplete() {
        return false;
    }

    @Override
    public boolean messageComplete() {
        return true;
    }

    @Override
    public void earlyEOF() {
        Http11Exchange current = exchange;
        if (current != null) {
            current.fail(new EofException("the server closed the connection before the response ended"));
        }
    }

    @Override
    public void badMessage(HttpException failure) {
        Http11Exchange current = exchange;
        if (current != null) {
            current.fail(failure instanceof Throwable throwable ? throwable : new IOException(String.valueOf(failure)));
        }
    }
}
