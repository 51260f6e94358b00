package io.h2bench.server;

import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.io.Connection;

/**
 * How much an HTTP/2 connection gathers before it writes to the socket. Jetty writes once the frames
 * it has gathered reach 32 KiB; a 16 KiB DATA frame is 9 bytes more than 16 KiB, so over TLS every
 * such write ended in a record of a few dozen bytes of its own, and a 2 MiB body took 64 of them and
 * 192 socket writes where 129 records carry it (issue 41). Gathering up to 1 MiB leaves one short
 * record per MiB; the frames are views of the response's buffers, so it costs no copy.
 */
final class Http2Writes {

    static final int THRESHOLD = 1024 * 1024;

    private Http2Writes() {
    }

    static Connection gathered(Connection connection) {
        ((HTTP2Connection) connection).getSession().setWriteThreshold(THRESHOLD);
        return connection;
    }
}
