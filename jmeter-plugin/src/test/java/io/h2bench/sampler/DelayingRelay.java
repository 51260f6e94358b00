package io.h2bench.sampler;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * A TCP relay that holds every chunk for a fixed one-way delay in each direction, so a round trip
 * through it costs a known, large R: page-load times can be checked against protocol models in
 * bands, not with sleeps. Order is kept (one FIFO queue per direction); bandwidth is not limited.
 */
final class DelayingRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final long oneWayNanos;
    private final java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();

    DelayingRelay(int targetPort, long oneWayMillis) throws IOException {
        this.targetPort = targetPort;
        this.oneWayNanos = TimeUnit.MILLISECONDS.toNanos(oneWayMillis);
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon(this::acceptLoop, "delaying-relay").start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** TCP connections the client opened through the relay. */
    int connections() {
        return connections.get();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                connections.incrementAndGet();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                relay(client, server);
                relay(server, client);
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void relay(Socket from, Socket to) {
        DelayQueue<Chunk> queue = new DelayQueue<>();
        daemon(() -> {
            byte[] buffer = new byte[64 * 1024];
            long sequence = 0;
            try (InputStream in = from.getInputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    queue.put(new Chunk(System.nanoTime() + oneWayNanos, sequence++, Arrays.copyOf(buffer, read)));
                }
            } catch (IOException closed) {
                // Fall through: the end marker closes the other side after the delay too.
            }
            queue.put(new Chunk(System.nanoTime() + oneWayNanos, sequence, null));
        }, "delaying-relay-in").start();
        daemon(() -> {
            try (OutputStream out = to.getOutputStream()) {
                while (true) {
                    Chunk chunk = queue.take();
                    if (chunk.bytes() == null) {
                        break;
                    }
                    out.write(chunk.bytes());
                    out.flush();
                }
            } catch (IOException | InterruptedException closed) {
                // The peer went away.
            } finally {
                try {
                    to.close();
                } catch (IOException ignored) {
                    // Already closed.
                }
            }
        }, "delaying-relay-out").start();
    }

    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }

    /** Due time first, then arrival order: equal due times must not overtake each other. */
    private record Chunk(long dueNanos, long sequence, byte[] bytes) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Chunk that = (Chunk) other;
            int byTime = Long.compare(dueNanos, that.dueNanos);
            return byTime != 0 ? byTime : Long.compare(sequence, that.sequence);
        }
    }
}
