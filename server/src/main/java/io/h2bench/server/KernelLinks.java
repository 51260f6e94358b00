package io.h2bench.server;

import io.h2bench.server.netem.kernel.KernelLink;
import java.io.IOException;
import java.util.Collection;
import org.eclipse.jetty.server.NetworkConnector;

/** The two things the server does with a kernel link, kept out of {@link H2BenchServer}'s start. */
final class KernelLinks {

    private KernelLinks() {
    }

    /**
     * Opens the connectors' listening sockets, on the link's namespace thread when there is a link,
     * so they (and every socket they accept) live behind it. Jetty's start then finds them open and
     * keeps them; opening them first tells the h3 listener the port number h2 got.
     */
    static void open(KernelLink link, Collection<? extends NetworkConnector> connectors) throws IOException {
        if (link == null) {
            openAll(connectors);
            return;
        }
        link.inNamespace(() -> {
            openAll(connectors);
            return null;
        });
    }

    private static void openAll(Collection<? extends NetworkConnector> connectors) throws IOException {
        for (NetworkConnector connector : connectors) {
            connector.open();
        }
    }

    static void closeQuietly(KernelLink link) {
        if (link != null) {
            link.close();
        }
    }
}
