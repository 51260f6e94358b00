package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.Test;

/**
 * The TLS listeners' handshakes draw their random bytes from a generator per thread, never through
 * one lock: with JSSE's default (NativePRNG, one SHA1PRNG behind a JVM-wide lock) 1,000 TLS
 * connections opened at once left 136 of the server's 200 threads waiting for that lock (issue 41).
 * It applies to the listeners on JSSE ({@code --tls-provider jsse}); on Conscrypt, BoringSSL's own.
 */
class HandshakeRandomTest {

    @Test
    void shouldDrawWhileAnotherThreadIsInsideItsDrawWhenThreadsShareTheRandom() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        SecureRandom random = HandshakeRandom.create(() -> new SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                if (Thread.currentThread().getName().equals("held")) {
                    inside.countDown();
                    awaitQuietly(release);
                }
                super.nextBytes(bytes);
            }
        });
        Thread held = new Thread(() -> random.nextBytes(new byte[32]), "held");
        held.start();
        inside.await();

        CountDownLatch drawn = new CountDownLatch(1);
        Thread free = new Thread(() -> {
            random.nextBytes(new byte[32]);
            drawn.countDown();
        }, "free");
        free.start();
        // Not a time measured: behind a shared lock the draw would wait until the held one is released.
        boolean drewWhileHeld = drawn.await(30, TimeUnit.SECONDS);
        release.countDown();
        held.join();
        free.join();

        assertThat(drewWhileHeld).as("a draw ended while another thread was inside its own").isTrue();
    }

    @Test
    void shouldGiveEachThreadAGeneratorOfItsOwnWhenEightThreadsDraw() throws Exception {
        Set<SecureRandom> made = ConcurrentHashMap.newKeySet();
        Set<String> drawnBy = ConcurrentHashMap.newKeySet();
        SecureRandom random = HandshakeRandom.create(() -> {
            String owner = Thread.currentThread().getName();
            SecureRandom generator = new SecureRandom() {
                @Override
                public void nextBytes(byte[] bytes) {
                    drawnBy.add(owner + (owner.equals(Thread.currentThread().getName()) ? "" : " for another thread"));
                    super.nextBytes(bytes);
                }
            };
            made.add(generator);
            return generator;
        });
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            threads.add(new Thread(() -> {
                for (int draw = 0; draw < 100; draw++) {
                    random.nextBytes(new byte[32]);
                    random.nextInt();
                }
            }, "drawer-" + i));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(made).hasSize(8);
        assertThat(drawnBy).containsExactlyInAnyOrder("drawer-0", "drawer-1", "drawer-2", "drawer-3", "drawer-4", "drawer-5",
                "drawer-6", "drawer-7");
    }

    @Test
    void shouldBeDeclaredThreadSafeSoThatSecureRandomAddsNoLockWhenCreated() {
        SecureRandom random = HandshakeRandom.create();

        assertThat(random.getAlgorithm()).isEqualTo(HandshakeRandom.ALGORITHM);
        assertThat(HandshakeRandom.declaredThreadSafe(random)).isTrue();
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        assertThat(bytes).isNotEqualTo(new byte[32]);
    }

    @Test
    void shouldGiveJsseAndTheDefaultThePerThreadRandomWhenTheTlsListenersStartOnJsse() throws Exception {
        // On Conscrypt (the default) BoringSSL draws from a generator per thread of its own and ignores the random it is given.
        try (H2BenchServer server = H2BenchServer.start(ServerSettings.ephemeral().withTlsProvider(TlsProvider.JSSE))) {
            for (Listener listener : List.of(Listener.H1_TLS, Listener.H2)) {
                SslContextFactory ssl = server.connector(listener).getConnectionFactory(SslConnectionFactory.class).getSslContextFactory();

                assertThat(ssl).as(listener.id()).isInstanceOf(Connectors.TlsContextFactory.class);
                SecureRandom random = ((Connectors.TlsContextFactory) ssl).secureRandom();
                assertThat(random.getAlgorithm()).as(listener.id()).isEqualTo(HandshakeRandom.ALGORITHM);
                assertThat(HandshakeRandom.declaredThreadSafe(random)).as(listener.id()).isTrue();
            }
            // What JSSE's signatures (CertificateVerify) draw from: it passes them no random of their own.
            assertThat(new SecureRandom().getAlgorithm()).isEqualTo(HandshakeRandom.ALGORITHM);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
