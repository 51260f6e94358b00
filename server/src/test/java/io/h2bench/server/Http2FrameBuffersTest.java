package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.generator.Generator;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.util.IO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An HTTP/2 response's DATA frames take no buffers of the connector's pool for their 9-byte headers. Jetty put
 * each header into an 8 KiB pool buffer of its own, and the 1 MiB of frames a connection gathers per write held 64
 * of them at once: over TLS at 100 connections the pool's search for a free one cost more than the encryption, and
 * h2 2 MiB cost 1.5 times nginx's CPU per request (issue 41). Checked on the pool's bucket of such buffers after one
 * 2 MiB response on a fresh server; and the frames' bytes are Jetty's own, byte for byte.
 */
class Http2FrameBuffersTest {

    @Test
    void shouldHoldFewPoolBuffersWhenSendingA2MiBBodyOverH2() throws Exception {
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral())) {
            ArrayByteBufferPool pool = (ArrayByteBufferPool) server.connector(Listener.H2).getByteBufferPool();
            long before = gatheringBuffers(pool);
            HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port(Listener.H2) + "/option?size=2m")).build();

            HttpResponse<byte[]> response = TestClients.jdk(HttpClient.Version.HTTP_2).send(request, HttpResponse.BodyHandlers.ofByteArray());

            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(response.body()).hasSize(2 * 1024 * 1024);
            // The body's 128 frames went in writes of up to 64: one buffer each had Jetty's headers needed.
            assertThat(gatheringBuffers(pool) - before).as("8 KiB buffers the pool made for the response").isLessThan(16);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "2097152, true, 16384, 2147483647",
        "2097152, false, 16384, 40000",
        "45056, true, 16384, 2147483647",
        "100, true, 16384, 2147483647",
        "0, true, 16384, 2147483647",
        "70000, true, 65536, 30000",
    })
    void shouldWriteJettysBytesWhenGeneratingDataFrames(int length, boolean endStream, int maxFrameSize, int maxLength) {
        Generator jetty = new Generator(ByteBufferPool.NON_POOLING, false, 0);
        Generator own = Http2Writes.generator(ByteBufferPool.NON_POOLING, false, 0);
        jetty.setMaxFrameSize(maxFrameSize);
        own.setMaxFrameSize(maxFrameSize);

        assertThat(frames(own, length, endStream, maxLength)).isEqualTo(frames(jetty, length, endStream, maxLength));
    }

    /** Buffers of the size Jetty gathers frames in, heap and direct, that the pool holds in use or free. */
    private static long gatheringBuffers(ArrayByteBufferPool pool) {
        return pool.poolFor(IO.DEFAULT_BUFFER_SIZE, true).size() + pool.poolFor(IO.DEFAULT_BUFFER_SIZE, false).size();
    }

    /** Each call's return value and the bytes it generated, as Jetty's session calls it until the body is sent. */
    private static List<Object> frames(Generator generator, int length, boolean endStream, int maxLength) {
        ByteBuffer body = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            body.put(i, (byte) i);
        }
        DataFrame frame = new DataFrame(5, body, endStream);
        List<Object> calls = new ArrayList<>();
        int sent = 0;
        do {
            RetainableByteBuffer.Mutable accumulator = new RetainableByteBuffer.DynamicCapacity(ByteBufferPool.NON_POOLING, false, -1);
            int generated = generator.data(accumulator, frame, maxLength);
            sent += generated - Frame.HEADER_LENGTH;
            ByteBuffer bytes = ByteBuffer.allocate(accumulator.remaining());
            accumulator.putTo(bytes);
            accumulator.release();
            calls.add(generated);
            calls.add(new String(bytes.array(), StandardCharsets.ISO_8859_1));
        } while (sent < length);
        return calls;
    }
}
