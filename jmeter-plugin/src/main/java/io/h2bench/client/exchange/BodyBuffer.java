package io.h2bench.client.exchange;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A response body as it arrives: copied once from Jetty's (often direct) buffers into one array,
 * sized from Content-Length when the server sent one, so a 44 kB body is neither copied through a
 * temporary array per chunk nor regrown and copied again at the end.
 */
final class BodyBuffer {

    /** A large Content-Length is not trusted for the first allocation; the array grows instead. */
    private static final int MAX_PRESIZE = 8 * 1024 * 1024;

    private byte[] bytes = new byte[0];
    private int size;

    /** Reserves room for a body announced as {@code length} bytes (negative: unknown). */
    synchronized void expect(long length) {
        if (length > bytes.length && size == 0) {
            bytes = new byte[(int) Math.min(length, MAX_PRESIZE)];
        }
    }

    synchronized void append(ByteBuffer content) {
        int length = content.remaining();
        if (size + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(size + length, bytes.length * 2));
        }
        content.get(bytes, size, length);
        size += length;
    }

    /** The body; the array itself when it is exactly full (the usual Content-Length case). */
    synchronized byte[] toByteArray() {
        return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }

    synchronized long size() {
        return size;
    }
}
