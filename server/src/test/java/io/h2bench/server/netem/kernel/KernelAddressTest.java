package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.h2bench.server.H2BenchServer;
import io.h2bench.server.Listener;
import io.h2bench.server.NetworkEngine;
import io.h2bench.server.ServerSettings;
import io.h2bench.server.netem.LinkProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behind the kernel link clients reach the server at the link's address, 198.18.N.2: the generated
 * certificate names it, so a client that checks it (as browsers and QUIC do) needs no exception, and
 * {@code --bind}, which cannot apply there, is refused with the reason.
 */
class KernelAddressTest {

    private static final LinkProfile TWO_MS = LinkProfile.ideal().withName("2 ms").withRtt(Duration.ofMillis(2));

    @ParameterizedTest
    @EnumSource(value = Listener.class, names = {"H1_TLS", "H2"})
    void shouldPassACertificateCheckByTheLinksAddressWhenBehindTheKernelLink(Listener listener) throws Exception {
        try (KernelServer kernel = KernelServer.start(TWO_MS)) {
            HttpClient client = HttpClient.newBuilder().sslContext(LinkTls.trusting(kernel.server().tls()))
                    .connectTimeout(Duration.ofSeconds(5)).build();
            // The JDK's client checks the URL's host, here an IP address, against the certificate (RFC 2818).
            URI uri = URI.create("https://" + kernel.host() + ":" + kernel.port(listener) + "/style.css");

            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());

            assertThat(kernel.host()).startsWith("198.18.");
            assertThat(response.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void shouldRefuseBindWithTheReasonWhenTheKernelEngineTakesTheListeners() throws Exception {
        KernelServer.start(TWO_MS).close(); // skips where the engine cannot run (fails on CI)
        ServerSettings settings = ServerSettings.ephemeral().withNetwork(TWO_MS).withBind("0.0.0.0");

        assertThatThrownBy(() -> H2BenchServer.start(settings, new NetworkEngine(NetworkEngine.Kind.KERNEL, LinkOptions.defaults())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--bind 0.0.0.0 applies to the proxy engine")
                .hasMessageContaining("at the link's address 198.18.");
    }
}
