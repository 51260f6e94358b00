package io.h2bench.server;

import io.h2bench.server.netem.kernel.KernelLink;
import java.io.IOException;
import java.util.Collection;
import org.eclipse.jetty.server.ServerConnector;

/** The two things the server does with a kernel link, kept out of {@link H2BenchServer}'s start. */
final class KernelLinks {

    private KernelLinks() {
    }

    /**
     * Opens the connectors' listening sockets on the link's namespace thread, so they (and every
     * socket they accept) live behind the link. Jetty's start then finds them open and keeps them.
     */
    static void openInside(KernelLink link, Collection<ServerConnector> connectors) throws IOException {
        if (link == null) {
            return;
        }
        link.inNamespace(() -> {
            for (ServerConnector connector : connectors) {
                connector.open();
            }
            return null;
        });
    }

    static void closeQuietly(KernelLink link) {
        if (link != null) {
            link.close();
        }
    }
}
