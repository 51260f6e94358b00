package io.h2bench.server.netem.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One TUN device: IP packets in and out of the kernel of the network namespace that was the
 * opening thread's. Not persistent, so the device disappears when its descriptor is closed, also
 * when the process dies.
 */
final class Tun implements AutoCloseable {

    /** _IOW('T', 202, int) */
    private static final NativeLong TUNSETIFF = new NativeLong(0x400454caL);
    private static final short IFF_TUN = 0x0001;
    private static final short IFF_NO_PI = 0x1000;
    /** Fail with EBUSY when the name exists, whatever holds it. */
    private static final short IFF_TUN_EXCL = (short) 0x8000;
    private static final int IFNAMSIZ = 16;
    private static final int IFREQ_SIZE = 40;

    private final int fd;
    private final String name;
    private volatile boolean closed;

    private Tun(int fd, String name) {
        this.fd = fd;
        this.name = name;
    }

    /**
     * Creates device {@code name} in the calling thread's network namespace; a name another
     * process holds fails with EBUSY, which is how two servers pick different links.
     */
    static Tun open(String name) throws IOException {
        int fd;
        try {
            fd = LibC.open("/dev/net/tun", LibC.O_RDWR | LibC.O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new IOException("cannot open /dev/net/tun: " + LibC.describe(e), e);
        }
        try {
            LibC.ioctl(fd, TUNSETIFF, ifreq(name));
            return new Tun(fd, name);
        } catch (LastErrorException e) {
            LibC.close(fd);
            throw new TunException("cannot create TUN device " + name + ": " + LibC.describe(e),
                    e.getErrorCode() == LibC.EBUSY, e);
        }
    }

    String name() {
        return name;
    }

    /** Blocks until a packet comes; returns its length (packets longer than {@code capacity} are cut). */
    int read(Pointer buffer, int capacity) {
        return LibC.read(fd, buffer, new NativeLong(capacity)).intValue();
    }

    void write(Pointer buffer, int length) {
        LibC.write(fd, buffer, new NativeLong(length));
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            LibC.close(fd);
        }
    }

    private static byte[] ifreq(String name) {
        byte[] request = new byte[IFREQ_SIZE];
        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length >= IFNAMSIZ) {
            throw new IllegalArgumentException("device name too long: " + name);
        }
        System.arraycopy(bytes, 0, request, 0, bytes.length);
        short flags = (short) (IFF_TUN | IFF_NO_PI | IFF_TUN_EXCL);
        request[IFNAMSIZ] = (byte) flags;
        request[IFNAMSIZ + 1] = (byte) (flags >> 8);
        return request;
    }

    /** The device could not be created; {@link #busy()} when another process holds the name. */
    static final class TunException extends IOException {
        private final boolean busy;

        TunException(String message, boolean busy, Throwable cause) {
            super(message, cause);
            this.busy = busy;
        }

        boolean busy() {
            return busy;
        }
    }
}
