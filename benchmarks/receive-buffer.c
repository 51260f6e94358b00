/*
 * Loaded with LD_PRELOAD into a QUIC client that asks for no socket receive buffer of its own
 * (Debian's gtlsclient): every UDP socket it opens gets H2BENCH_RECEIVE_BUFFER bytes, as Chromium and
 * quic-go ask for theirs. Without it the client has net.core.rmem_default (208 KiB), and a server
 * whose bursts overflow it loses datagrams at the client, not on the link. SO_RCVBUFFORCE needs root
 * and passes net.core.rmem_max; the kernel doubles the figure for its bookkeeping, as for SO_RCVBUF.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol) {
    static int (*next_socket)(int, int, int);
    if (next_socket == NULL) {
        next_socket = (int (*)(int, int, int)) dlsym(RTLD_NEXT, "socket");
    }
    int fd = next_socket(domain, type, protocol);
    const char *bytes = getenv("H2BENCH_RECEIVE_BUFFER");
    int udp = (domain == AF_INET || domain == AF_INET6) && (type & 0xf) == SOCK_DGRAM;
    if (fd >= 0 && udp && bytes != NULL) {
        int size = atoi(bytes);
        setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size);
    }
    return fd;
}
