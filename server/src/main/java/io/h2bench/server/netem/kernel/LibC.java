package io.h2bench.server.netem.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/**
 * The few C library calls the link needs, bound with JNA's direct mapping (the fastest JNA
 * offers: read and write run once per packet). Every call throws {@link LastErrorException}
 * (errno) on failure.
 */
final class LibC {

    static final int O_RDWR = 2;
    static final int O_RDONLY = 0;
    static final int O_CLOEXEC = 0x80000;
    static final int CLONE_NEWNET = 0x40000000;
    static final int SCHED_FIFO = 1;
    static final int EPERM = 1;
    static final int EBUSY = 16;

    static {
        Native.register("c");
    }

    private LibC() {
    }

    static native int open(String path, int flags) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;

    static native int ioctl(int fd, NativeLong request, byte[] argument) throws LastErrorException;

    static native int unshare(int flags) throws LastErrorException;

    static native NativeLong read(int fd, Pointer buffer, NativeLong count) throws LastErrorException;

    static native NativeLong write(int fd, Pointer buffer, NativeLong count) throws LastErrorException;

    /** {@code param} is a struct sched_param: one int, the priority. */
    static native int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;

    /** "EPERM (1)": errno's name where we know it, for one-line reasons. */
    static String describe(LastErrorException e) {
        return switch (e.getErrorCode()) {
            case EPERM -> "operation not permitted (EPERM)";
            case EBUSY -> "device busy (EBUSY)";
            case 2 -> "no such file (ENOENT)";
            case 13 -> "permission denied (EACCES)";
            case 19 -> "no such device (ENODEV)";
            default -> "errno " + e.getErrorCode();
        };
    }
}
