package io.h2bench.client.connect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receive buffer every client socket asks for, so that the TCP window a sample advertises is
 * set by the network, never by how quickly a selector thread wakes.
 *
 * <p>Linux grows a socket's receive buffer once per round trip ({@code tcp_rcv_space_adjust}) by
 * what the application copied in that round trip, and since 6.16 it subtracts what is still queued
 * when the first segment of a round trip is copied. Bursts on a link without a rate limit land in
 * tens of microseconds; a blocking reader (curl, HttpClient4) copies the first segment as it lands,
 * while Jetty's selector wakes, dispatches and reads some hundred microseconds later, with 20 to
 * 300 kB queued behind it. The kernel then counted little or nothing of each flight and kept the
 * window near its first 64 kB: a 2 MiB download at 100 ms took up to 3 s instead of 0.9 s.
 *
 * <p>A receive buffer set on the socket turns that autotuning off; the window then opens by two
 * segments per segment received ({@code tcp_grow_window}), ahead of any sender's slow start, up to
 * the buffer. The buffer is what the system allows ({@code net.core.rmem_max}), at most 16 MiB
 * (Linux doubles it, as its autotuning's 32 MiB ceiling); where the system allows less than 4 MiB,
 * a locked buffer would cap the window below a long fat link's needs, so autotuning stays and a
 * warning says how to lift the limit.
 */
final class ReceiveBuffer {

    static final int WANTED_BYTES = 16 * 1024 * 1024;
    static final int LEAST_USEFUL_BYTES = 4 * 1024 * 1024;
    private static final Path SYSTEM_MAXIMUM = Path.of("/proc/sys/net/core/rmem_max");
    private static final Logger LOG = LoggerFactory.getLogger(ReceiveBuffer.class);

    private ReceiveBuffer() {
    }

    /** Bytes for {@code SO_RCVBUF}, or -1 to leave the system's autotuning on. */
    static int socketBytes() {
        if (!Files.isReadable(SYSTEM_MAXIMUM)) {
            return -1; // not Linux: no autotuning rule of this kind is known there
        }
        long allowed = systemMaximum();
        int chosen = choose(allowed);
        if (chosen < 0) {
            LOG.warn("net.core.rmem_max is {} bytes: the sampler leaves the TCP receive window to Linux's autotuning, "
                    + "which lags behind large downloads on fast emulated links. 'sysctl -w net.core.rmem_max={}' "
                    + "lets the window follow the network (see the sampler page).", allowed, WANTED_BYTES);
        }
        return chosen;
    }

    /** The buffer for a system maximum of {@code allowed} bytes, or -1 when that is too small to lock. */
    static int choose(long allowed) {
        if (allowed < LEAST_USEFUL_BYTES) {
            return -1;
        }
        return (int) Math.min(allowed, WANTED_BYTES);
    }

    private static long systemMaximum() {
        try {
            // Not Files.readString: on JDK 17 it returned only the first byte of this /proc file ("4").
            return Long.parseLong(Files.readAllLines(SYSTEM_MAXIMUM, StandardCharsets.US_ASCII).get(0).trim());
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }
}
