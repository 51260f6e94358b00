package io.h2bench.server;

import io.h2bench.server.netem.LatencyProxy;
import io.h2bench.server.netem.LinkProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** Runs the network emulator alone in front of any TCP server: nginx, an application, a database. */
@Command(name = "forward", mixinStandardHelpOptions = true,
        description = {"Emulates a network (latency, bandwidth, loss) between clients and any TCP server.",
            "Clients connect to --bind:--listen; bytes go to --forward under the emulated link."})
public final class ForwardCommand implements Callable<Integer> {

    @Option(names = "--listen", required = true, paramLabel = "PORT",
            description = "Port the clients connect to (0 picks a free one).")
    private int listenPort;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String bind;

    @Option(names = "--forward", required = true, paramLabel = "HOST:PORT", converter = HostPortConverter.class,
            description = "The server that receives the traffic, e.g. localhost:8080 or [::1]:443.")
    private InetSocketAddress target;

    @Mixin
    private NetemOptions netem;

    @Spec
    private CommandSpec spec;

    /** Standalone use, without the server: {@code java -cp h2bench-server.jar io.h2bench.server.ForwardCommand}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ForwardCommand()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        try (LatencyProxy proxy = start()) {
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                proxy.close();
                stopped.countDown();
            }, "h2bench-forward-stop"));
            stopped.await();
        }
        return 0;
    }

    /** Starts the proxy and prints where it listens and what conditions are in force. */
    LatencyProxy start() {
        if (listenPort < 0 || listenPort > 65535) {
            throw new ParameterException(spec.commandLine(),
                    "--listen must be a port between 0 and 65535, not " + listenPort);
        }
        LinkProfile profile = netem.profile();
        LatencyProxy proxy;
        try {
            proxy = LatencyProxy.start(new InetSocketAddress(bind, listenPort), target, profile);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(),
                    "cannot listen on " + bind + ":" + listenPort + ": " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        InetSocketAddress listening = proxy.address();
        out.printf("forwarding %s:%d -> %s:%d with %s%n", listening.getHostString(), listening.getPort(),
                target.getHostString(), target.getPort(), profile.describe());
        out.flush();
        return proxy;
    }

    /** "host:port" or "[v6]:port", resolved now so that a typo fails before anything listens. */
    public static final class HostPortConverter implements ITypeConverter<InetSocketAddress> {
        @Override
        public InetSocketAddress convert(String value) {
            int colon = value.lastIndexOf(':');
            if (colon <= 0 || colon == value.length() - 1) {
                throw new TypeConversionException("'" + value + "' is not HOST:PORT, e.g. localhost:8080");
            }
            String host = value.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(value.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' has no port number after the last ':'");
            }
            if (port < 1 || port > 65535) {
                throw new TypeConversionException("'" + value + "' has a port outside 1-65535");
            }
            InetSocketAddress address = new InetSocketAddress(host, port);
            if (address.isUnresolved()) {
                throw new TypeConversionException("cannot resolve host '" + host + "'");
            }
            return address;
        }
    }
}
