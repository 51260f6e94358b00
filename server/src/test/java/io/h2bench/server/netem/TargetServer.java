package io.h2bench.server.netem;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A blocking TCP server on 127.0.0.1, port 0, that runs one behaviour per accepted connection. */
final class TargetServer implements AutoCloseable {

    interface Behaviour {
        void serve(Socket socket) throws IOException;
    }

    private final ServerSocket listener;
    private final ExecutorService workers = Executors.newCachedThreadPool();

    private TargetServer(Behaviour behaviour) throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        workers.execute(() -> acceptLoop(behaviour));
    }

    static TargetServer start(Behaviour behaviour) throws IOException {
        return new TargetServer(behaviour);
    }

    /** Writes back every byte it reads, then half-closes when the client does. */
    static TargetServer echo() throws IOException {
        return start(socket -> {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[64 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
            socket.shutdownOutput();
        });
    }

    /** Waits for one byte, then sends {@code payload} and closes. */
    static TargetServer download(byte[] payload) throws IOException {
        return start(socket -> {
            if (socket.getInputStream().read() < 0) {
                return;
            }
            socket.getOutputStream().write(payload);
            socket.shutdownOutput();
            socket.getInputStream().readAllBytes();
        });
    }

    InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    private void acceptLoop(Behaviour behaviour) {
        while (!listener.isClosed()) {
            try {
                Socket socket = listener.accept();
                workers.execute(() -> {
                    try (socket) {
                        behaviour.serve(socket);
                    } catch (IOException e) {
                        // the test looks at what the client saw
                    }
                });
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        workers.shutdownNow();
    }
}
