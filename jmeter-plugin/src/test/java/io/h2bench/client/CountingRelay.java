package io.h2bench.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An outside witness for the byte counts: a TCP relay between client and server that counts what
 * passes each way, knowing nothing of TLS or HTTP, and keeps what each connection's client sent.
 * One connection at a time is enough for the tests.
 */
final class CountingRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final long upstreamDelayMillis;
    private final AtomicLong clientToServer = new AtomicLong();
    private final AtomicLong serverToClient = new AtomicLong();
    private final List<ByteArrayOutputStream> sentByClients = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    CountingRelay(int targetPort) throws IOException {
        this(targetPort, 0);
    }

    /** Connects to the server only {@code upstreamDelayMillis} after accepting: a slow way to the server. */
    CountingRelay(int targetPort, long upstreamDelayMillis) throws IOException {
        this.targetPort = targetPort;
        this.upstreamDelayMillis = upstreamDelayMillis;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "counting-relay");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    long clientToServer() {
        return clientToServer.get();
    }

    long serverToClient() {
        return serverToClient.get();
    }

    /** What the client sent on each connection, in the order they were accepted, up to now. */
    List<byte[]> clientBytesByConnection() {
        return sentByClients.stream().map(sent -> {
            synchronized (sent) {
                return sent.toByteArray();
            }
        }).toList();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Thread.sleep(upstreamDelayMillis);
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                ByteArrayOutputStream sent = new ByteArrayOutputStream();
                sentByClients.add(sent);
                pump(client, server, clientToServer, sent);
                pump(server, client, serverToClient, null);
            } catch (IOException | InterruptedException closed) {
                return;
            }
        }
    }

    /** {@code kept}: where the bytes are kept too, or null. */
    private static void pump(Socket from, Socket to, AtomicLong counter, ByteArrayOutputStream kept) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    // Counted before forwarding: the peer cannot have seen a byte the relay has not counted.
                    counter.addAndGet(read);
                    if (kept != null) {
                        synchronized (kept) {
                            kept.write(buffer, 0, read);
                        }
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException closed) {
                // One side went away; the other pump ends on its own.
            } finally {
                closeQuietly(to);
            }
        }, "counting-relay-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already closed.
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
