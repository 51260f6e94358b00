package io.h2bench.sampler;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP relay whose server-to-client direction starts slowly: the first {@code slowBytes} bytes of
 * each connection (a TLS handshake's server flight) go out {@code piece} bytes at a time,
 * {@code gapMillis} apart, after {@code firstDelayMillis}; the rest flows freely. A handshake that
 * is slow in all but keeps hearing from its server, the way one is on a client opening hundreds.
 */
final class TricklingRelay implements AutoCloseable {

    private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final int targetPort;
    private final long firstDelayMillis;
    private final long gapMillis;
    private final int piece;
    private final int slowBytes;

    TricklingRelay(int targetPort, long firstDelayMillis, long gapMillis, int piece, int slowBytes) throws IOException {
        this.targetPort = targetPort;
        this.firstDelayMillis = firstDelayMillis;
        this.gapMillis = gapMillis;
        this.piece = piece;
        this.slowBytes = slowBytes;
        Thread acceptor = new Thread(this::acceptLoop, "trickling-relay");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                server.setTcpNoDelay(true);
                client.setTcpNoDelay(true);
                pump(client, server, false);
                pump(server, client, true);
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean trickle) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            long slowLeft = trickle ? slowBytes : 0;
            boolean first = true;
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    int offset = 0;
                    while (offset < read && slowLeft > 0) {
                        Thread.sleep(first ? firstDelayMillis : gapMillis);
                        first = false;
                        int length = (int) Math.min(Math.min(piece, slowLeft), read - offset);
                        out.write(buffer, offset, length);
                        out.flush();
                        offset += length;
                        slowLeft -= length;
                    }
                    out.write(buffer, offset, read - offset);
                    out.flush();
                }
            } catch (IOException | InterruptedException closed) {
                // One side went away; the other pump ends on its own.
            } finally {
                try {
                    to.close();
                } catch (IOException ignored) {
                    // Already closed.
                }
            }
        }, "trickling-relay-pump");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
