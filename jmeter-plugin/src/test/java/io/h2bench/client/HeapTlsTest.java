package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.connect.SharedClient;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS connections {@code HttpClient} opens itself (to a proxy reached over TLS, and the tunnels
 * through it) encrypt in heap buffers, as the sampler's own do: WiretapConnector makes them all.
 */
class HeapTlsTest {

    @TempDir
    Path tlsDir;

    @Test
    void shouldEncryptAndDecryptInHeapBuffersOnHttpClientsOwnConnections() throws Exception {
        List<SslConnection> opened = new CopyOnWriteArrayList<>();
        Connection.Listener tls = new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                if (connection instanceof SslConnection ssl) {
                    opened.add(ssl);
                }
            }
        };
        SharedClient shared = SharedClient.acquire();
        try (LoopbackTestServer server = LoopbackTestServer.start(new Answering(), null, tlsDir)) {
            shared.httpClient().addBean(tls);
            ContentResponse response = shared.httpClient().newRequest("https://127.0.0.1:" + server.securePort() + "/")
                    .timeout(10, TimeUnit.SECONDS).send();

            assertThat(response.getContentAsString()).isEqualTo("ok");
            assertThat(opened).hasSize(1);
            // Jetty exposes the choice only in these fields; a rename fails here, not silently.
            assertThat(flag(opened.get(0), "_encryptedDirectBuffers")).as("encrypts in direct buffers").isFalse();
            assertThat(flag(opened.get(0), "_decryptedDirectBuffers")).as("decrypts in direct buffers").isFalse();
        } finally {
            shared.httpClient().removeBean(tls);
            shared.release();
        }
    }

    private static boolean flag(SslConnection connection, String name) throws ReflectiveOperationException {
        Field field = SslConnection.class.getDeclaredField(name);
        field.setAccessible(true);
        return field.getBoolean(connection);
    }

    private static final class Answering extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            response.write(true, ByteBuffer.wrap("ok".getBytes(StandardCharsets.US_ASCII)), callback);
            return true;
        }
    }
}
