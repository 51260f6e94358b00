package io.h2bench.client.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.connect.SharedClient;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.junit.jupiter.api.Test;

/** The client's buffers are reused by as many users as read at once, not by its 16 threads' worth. */
class ClientBufferPoolTest {

    private static final int USERS = 400;
    /** JSSE's packet buffer with TLS 1.3, which Jetty's TLS end point asks the pool for. */
    private static final int TLS_RECORD_BYTES = 16_709;

    @Test
    void shouldKeepABufferOfEachSizeForEveryUserReadingAtOnce() {
        SharedClient shared = SharedClient.acquire();
        try {
            ByteBufferPool pool = shared.connector().getByteBufferPool();
            // What 400 users hold while each reads a response over TLS: a read buffer and a TLS record's.
            List<RetainableByteBuffer> held = new ArrayList<>();
            for (int user = 0; user < USERS; user++) {
                held.add(pool.acquire(ReadBuffer.BYTES, false));
                held.add(pool.acquire(TLS_RECORD_BYTES, false));
            }
            held.forEach(RetainableByteBuffer::release);

            assertThat(((ArrayByteBufferPool) pool).getAvailableHeapByteBufferCount())
                    .as("buffers kept for the next reads").isGreaterThanOrEqualTo(2L * USERS);
        } finally {
            shared.release();
        }
    }
}
