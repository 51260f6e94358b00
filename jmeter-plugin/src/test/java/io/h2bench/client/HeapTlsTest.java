package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.connect.SharedClient;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.ConnectionProfile;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's TLS connections encrypt and decrypt in heap buffers, not Jetty's default direct ones
 * (WiretapConnector makes them all, a proxy's reached over TLS too): HTTP/1.1 and h2 alike.
 */
class HeapTlsTest {

    @TempDir
    Path tlsDir;

    @Test
    void shouldEncryptAndDecryptInHeapBuffersWhenTheOwnEnginesSpeakTls() throws Exception {
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
        try (LoopbackTestServer server = LoopbackTestServer.start(new Answering(), null, tlsDir);
             UserConnections user = UserConnections.open()) {
            shared.connectionListeners().addBean(tls);
            URI uri = URI.create("https://127.0.0.1:" + server.securePort() + "/");
            for (ProtocolMode mode : List.of(ProtocolMode.HTTP_1_1, ProtocolMode.HTTP_2)) {
                ExchangeResult result = user.send(ExchangeRequest.get(uri, mode).withAlpnFallback(true)
                        .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)), ConnectionProfile.DIRECT);
                assertThat(result.failed()).as(result.failureMessage()).isFalse();
            }

            assertThat(opened).hasSize(2);
            for (SslConnection connection : opened) {
                // Jetty exposes the choice only in these fields; a rename fails here, not silently.
                assertThat(flag(connection, "_encryptedDirectBuffers")).as("encrypts in direct buffers").isFalse();
                assertThat(flag(connection, "_decryptedDirectBuffers")).as("decrypts in direct buffers").isFalse();
            }
        } finally {
            shared.connectionListeners().removeBean(tls);
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
