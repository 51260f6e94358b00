package io.h2bench.client.direct;

import java.nio.ByteBuffer;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * A connection's read buffer, taken from the pool for a read and given back once everything in it is
 * parsed, so that idle connections (400 users' worth) hold none. Used only by the one thread that
 * reads the connection at a time, which gives it back before asking for the next read: from then on
 * another thread may read, and must not find a buffer this one is giving back.
 */
final class ReadBuffer {

    /**
     * Larger than a TLS record's plaintext: Jetty's TLS end point decrypts straight into a buffer with
     * more room than the engine's application buffer (JSSE's: 16,704 bytes with TLS 1.3, 16,680 with
     * 1.2), and into a buffer of its own, copied afterwards, into a smaller one.
     */
    static final int BYTES = 32 * 1024;

    private final ByteBufferPool pool;
    private RetainableByteBuffer held;

    ReadBuffer(ByteBufferPool pool) {
        this.pool = pool;
    }

    /** The buffer to fill (flush mode): the one holding bytes not parsed yet, or an empty one. */
    ByteBuffer take() {
        if (held == null) {
            held = pool.acquire(BYTES, false);
        }
        return held.getByteBuffer();
    }

    /** Gives the buffer back when it holds nothing unparsed; call before asking for the next read. */
    void releaseIfParsed() {
        if (held != null && !held.getByteBuffer().hasRemaining()) {
            held.release();
            held = null;
        }
    }
}
