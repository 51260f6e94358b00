package io.h2bench.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP relay on loopback in front of one TLS listener that reads the TLS record headers of what the
 * server sends: each record's length, in order. One client connection at a time. What a test asserts
 * on is what crossed the socket, whatever the server's code did to produce it.
 */
final class TlsRecordRelay implements AutoCloseable {

    private static final int HEADER = 5;

    private final ServerSocket front;
    private final InetSocketAddress server;
    private final List<Integer> lengths = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    TlsRecordRelay(int serverPort) throws IOException {
        front = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        server = new InetSocketAddress(InetAddress.getLoopbackAddress(), serverPort);
        Thread acceptor = new Thread(this::accept, "tls-record-relay");
        acceptor.setDaemon(true);
        acceptor.start();
        pumps.add(acceptor);
    }

    int port() {
        return front.getLocalPort();
    }

    /** Lengths of the records the server has sent so far (their ciphertext, without the 5-byte header). */
    synchronized List<Integer> recordLengths() {
        return List.copyOf(lengths);
    }

    private void accept() {
        try {
            while (true) {
                Socket client = front.accept();
                Socket upstream = new Socket(server.getAddress(), server.getPort());
                synchronized (this) {
                    sockets.add(client);
                    sockets.add(upstream);
                }
                pump(client.getInputStream(), upstream.getOutputStream(), false);
                pump(upstream.getInputStream(), client.getOutputStream(), true);
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    private void pump(InputStream in, OutputStream out, boolean fromServer) {
        Thread thread = new Thread(() -> {
            RecordParser records = new RecordParser();
            byte[] buffer = new byte[64 * 1024];
            try {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (fromServer) {
                        records.feed(buffer, n);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException closed) {
                // either side left
            }
        }, "tls-record-relay-pump");
        thread.setDaemon(true);
        thread.start();
        pumps.add(thread);
    }

    /** Follows record boundaries through a byte stream cut anywhere. */
    private final class RecordParser {
        private final byte[] header = new byte[HEADER];
        private int headerBytes;
        private int bodyLeft;

        void feed(byte[] bytes, int count) {
            for (int i = 0; i < count; ) {
                if (bodyLeft > 0) {
                    int skip = Math.min(bodyLeft, count - i);
                    bodyLeft -= skip;
                    i += skip;
                } else {
                    header[headerBytes++] = bytes[i++];
                    if (headerBytes == HEADER) {
                        bodyLeft = ((header[3] & 0xff) << 8) | (header[4] & 0xff);
                        headerBytes = 0;
                        synchronized (TlsRecordRelay.this) {
                            lengths.add(bodyLeft);
                        }
                    }
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        front.close();
        synchronized (this) {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }
}
