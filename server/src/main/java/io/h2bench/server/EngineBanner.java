package io.h2bench.server;

import io.h2bench.server.netem.kernel.KernelLink;
import java.io.PrintStream;

/** The startup lines that say which engine emulates the network, and the link's counters at the end. */
final class EngineBanner {

    private EngineBanner() {
    }

    static void print(PrintStream out, H2BenchServer server) {
        if (server.network().isIdeal()) {
            return;
        }
        KernelLink link = server.kernelLink();
        if (link == null) {
            out.println("engine: " + (server.engineFallbackReason() != null ? server.engineFallbackReason() : "proxy"));
            return;
        }
        out.println("engine: kernel (TUN link " + link.device() + ": clients at " + link.clientAddress()
                + ", server at " + link.serverAddress() + "; congestion control " + link.options().congestionControl()
                + ", queue " + link.options().queuePackets() + " packets"
                + (server.network().loss() > 0 ? ", loss pattern " + link.options().lossPattern().flagValue() : "") + ")");
        if (link.priorityProblem() != null) {
            out.println("engine: " + link.priorityProblem());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> out.println(link.counters().describe())));
    }
}
