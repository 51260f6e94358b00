package io.h2bench.server;

import io.h2bench.server.netem.kernel.LinkOptions;
import io.h2bench.server.netem.kernel.LossPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Which engine emulates the network, the kernel link's own settings, and the client command to run
 * behind the link ({@code -- COMMAND ARGS...}, as mahimahi's shells do).
 */
public final class EngineOptions {

    @Option(names = "--engine", paramLabel = "ENGINE", converter = KindConverter.class,
            description = "kernel: a packet-level link between the kernel's own TCP stacks (needs root, or a user "
                    + "namespace with -- COMMAND); proxy: the byte proxy; auto (default): kernel where it can run.")
    NetworkEngine.Kind engine = NetworkEngine.Kind.AUTO;

    @Option(names = "--queue", paramLabel = "PACKETS",
            description = "Kernel engine: drop-tail queue in front of each direction's bandwidth (default: ${DEFAULT-VALUE}).")
    int queuePackets = LinkOptions.DEFAULT_QUEUE_PACKETS;

    @Option(names = "--congestion-control", paramLabel = "NAME",
            description = "Kernel engine: the server's TCP congestion control (default: ${DEFAULT-VALUE}, as the seeds' servers).")
    String congestionControl = LinkOptions.DEFAULT_CONGESTION_CONTROL;

    @Option(names = "--loss-pattern", paramLabel = "PATTERN", converter = LossPatternConverter.class,
            description = "Kernel engine: random (default: every packet, as tc netem), per-connection (data packets "
                    + "only, the same ones on every connection, so that clients compare sample by sample) or "
                    + "nth-connection (as per-connection, but each server port's n-th connection meets pattern n, so that "
                    + "servers taking turns compare over many patterns).")
    LossPattern lossPattern = LossPattern.RANDOM;

    @Parameters(paramLabel = "COMMAND", arity = "0..*",
            description = "After --: a client command to run behind the link (env H2BENCH_HOST and H2BENCH_<LISTENER>_PORT "
                    + "say where the server is); the server stops when it exits, with its exit code.")
    List<String> command = new ArrayList<>();

    NetworkEngine networkEngine() {
        if (engine == NetworkEngine.Kind.PROXY && lossPattern != LossPattern.RANDOM) {
            throw new IllegalArgumentException("--loss-pattern " + lossPattern.flagValue()
                    + " needs the kernel engine: the byte proxy draws each connection's losses apart");
        }
        return new NetworkEngine(engine, new LinkOptions(queuePackets, congestionControl, lossPattern));
    }

    boolean hasCommand() {
        return !command.isEmpty();
    }

    static final class KindConverter implements picocli.CommandLine.ITypeConverter<NetworkEngine.Kind> {
        @Override
        public NetworkEngine.Kind convert(String value) {
            try {
                return NetworkEngine.Kind.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("use kernel, proxy or auto, not '" + value + "'");
            }
        }
    }

    static final class LossPatternConverter implements picocli.CommandLine.ITypeConverter<LossPattern> {
        @Override
        public LossPattern convert(String value) {
            try {
                return LossPattern.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
