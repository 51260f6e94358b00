package io.h2bench.server.netem.kernel;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A fresh, anonymous network namespace owned by this JVM: one thread {@code unshare}s itself into
 * it and then runs whatever must happen inside (open a TUN device, open listening sockets). Sockets
 * and devices stay in the namespace they were created in whatever thread uses them later. Nothing
 * names the namespace on disk, so it vanishes with its last socket, device and thread, also when
 * the process is killed.
 */
final class NetworkNamespace implements AutoCloseable {

    private final ExecutorService thread;
    private final int fd;

    private NetworkNamespace(ExecutorService thread, int fd) {
        this.thread = thread;
        this.fd = fd;
    }

    /** Fails with a one-line reason when this process may not create network namespaces. */
    static NetworkNamespace create() throws IOException {
        ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "h2bench-netns");
            t.setDaemon(true);
            return t;
        });
        try {
            int fd = call(thread, NetworkNamespace::enter);
            return new NetworkNamespace(thread, fd);
        } catch (IOException | RuntimeException e) {
            thread.shutdownNow();
            throw e;
        }
    }

    /** Runs {@code task} on the thread inside the namespace and returns its result. */
    <T> T call(Callable<T> task) throws IOException {
        return call(thread, task);
    }

    /** A path other processes can give {@code nsenter --net=} while this JVM lives. */
    String path() {
        return "/proc/" + ProcessHandle.current().pid() + "/fd/" + fd;
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LibC.close(fd);
    }

    private static int enter() throws IOException {
        try {
            LibC.unshare(LibC.CLONE_NEWNET);
        } catch (LastErrorException e) {
            throw new IOException("cannot create a network namespace: " + LibC.describe(e), e);
        }
        return LibC.open("/proc/thread-self/ns/net", LibC.O_RDONLY | LibC.O_CLOEXEC);
    }

    private static <T> T call(ExecutorService thread, Callable<T> task) throws IOException {
        Future<T> result = thread.submit(task);
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while working in the network namespace", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause.getMessage(), cause);
        }
    }
}
