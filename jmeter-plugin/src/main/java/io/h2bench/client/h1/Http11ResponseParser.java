package io.h2bench.client.h1;

import io.h2bench.client.direct.CallerReadConnection;
import io.h2bench.client.exchange.Http11ResponseReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.util.BufferUtil;

/**
 * The responses of one {@link Http11Connection}, parsed by Jetty's {@link HttpParser} into the
 * exchange in flight: interim responses (100 Continue, 103 Early Hints) skipped, the final one's
 * head, body and end handed on. A 101 to an h2c Upgrade is no response of the exchange's either: the
 * connection switches to HTTP/2 there ({@link Http11Connection#switchToHttp2}). Used by whichever
 * thread reads the connection, one at a time.
 */
final class Http11ResponseParser extends Http11ResponseReader {

    private final Http11Connection connection;
    private boolean interim;
    /** The response is the 101 to the exchange's h2c Upgrade. */
    private boolean switching;
    /** Bytes of the current exchange's response were parsed. */
    private boolean responseBytes;

    Http11ResponseParser(Http11Connection connection) {
        this.connection = connection;
    }

    /** Before {@code next}'s request goes out: a new response, none of it read yet. */
    void expect(Http11Exchange next) {
        responseBytes = false;
        parser.reset();
        parser.setHeadResponse(next.head());
    }

    boolean responseBytes() {
        return responseBytes;
    }

    /**
     * Parses what was read; true when a final response ended at the last byte read, and the connection
     * has stopped reading ({@link CallerReadConnection#stopReading}).
     */
    boolean parse(ByteBuffer in) {
        while (in.hasRemaining()) {
            Http11Exchange current = connection.exchange();
            if (current == null || parser.isComplete()) {
                // Bytes after the response, or while no request is out: nothing a server may send on HTTP/1.1.
                BufferUtil.clear(in);
                connection.close();
                return false;
            }
            responseBytes = true;
            parser.parseNext(in);
            if (parser.isComplete() && messageDone(current, in)) {
                return true;
            }
        }
        return false;
    }

    private boolean messageDone(Http11Exchange current, ByteBuffer in) {
        if (switching) {
            connection.switchToHttp2(current, in);
            return true;
        }
        if (interim) {
            // A 100 Continue or 103 Early Hints: the final response follows on the same exchange.
            interim = false;
            parser.reset();
            parser.setHeadResponse(current.head());
            return false;
        }
        boolean idle = !in.hasRemaining();
        if (idle) {
            connection.stopReading();
        }
        current.responseEnded(keepsAlive());
        return idle;
    }

    /** The server closed the connection: a body delimited by the connection's end completes; anything else ended early. */
    void endOfInput() {
        Http11Exchange current = connection.exchange();
        if (current != null && !parser.isComplete()) {
            parser.atEOF();
            parser.parseNext(BufferUtil.EMPTY_BUFFER);
            if (parser.isComplete() && !interim) {
                current.responseEnded(false);
            } else {
                current.fail(connection.notReached(current, endedEarly()));
            }
        }
        connection.close();
    }

    private static EofException endedEarly() {
        return new EofException("the server closed the connection before the response ended");
    }

    @Override
    public void startResponse(HttpVersion responseVersion, int responseStatus, String responseReason) {
        super.startResponse(responseVersion, responseStatus, responseReason);
        Http11Exchange current = connection.exchange();
        switching = responseStatus == 101 && current != null && current.asksForUpgrade();
        interim = responseStatus >= 100 && responseStatus < 200 && responseStatus != 101 || switching;
        if (!interim && current != null) {
            current.responseBegun();
        } else if (responseStatus == 100 && current != null) {
            current.continued();
        }
    }

    @Override
    public boolean headerComplete() {
        Http11Exchange current = connection.exchange();
        if (!interim && current != null) {
            current.responseHeaders(status, reason, version, fields);
        }
        return false;
    }

    @Override
    public boolean content(ByteBuffer content) {
        Http11Exchange current = connection.exchange();
        if (current != null && content.hasRemaining()) {
            current.responseContent(content);
        }
        return false;
    }

    @Override
    public void earlyEOF() {
        Http11Exchange current = connection.exchange();
        if (current != null) {
            current.fail(connection.notReached(current, endedEarly()));
        }
    }

    @Override
    public void badMessage(HttpException failure) {
        Http11Exchange current = connection.exchange();
        if (current != null) {
            current.fail(failure instanceof Throwable throwable ? throwable : new IOException(String.valueOf(failure)));
        }
    }
}
