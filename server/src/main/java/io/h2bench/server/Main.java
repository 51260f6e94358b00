package io.h2bench.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.h2bench.server.h3.QuicOptions;
import io.h2bench.server.h3.QuicheLibrary;
import io.h2bench.server.objects.TestObjects;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code java -jar h2bench-server.jar}: starts the five listeners and prints where each object is. */
@Command(name = "h2bench-server", mixinStandardHelpOptions = true, version = "h2bench-server 0.1",
        description = "Serves the seed experiments' test objects over HTTP/1.1, HTTP/1.1+TLS, HTTP/2+TLS, h2c and HTTP/3.",
        sortOptions = false, subcommands = ForwardCommand.class)
public final class Main implements Callable<Integer> {

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(names = "--h1-port", paramLabel = "PORT", description = "HTTP/1.1 clear-text port, 0 = any free one (default: ${DEFAULT-VALUE}).")
    int h1Port = Listener.H1.defaultPort();

    @Option(names = "--tls-port", paramLabel = "PORT", description = "HTTP/1.1 over TLS port (default: ${DEFAULT-VALUE}).")
    int tlsPort = Listener.H1_TLS.defaultPort();

    @Option(names = "--h2-port", paramLabel = "PORT", description = "HTTP/2 over TLS (ALPN) port (default: ${DEFAULT-VALUE}).")
    int h2Port = Listener.H2.defaultPort();

    @Option(names = "--h2c-port", paramLabel = "PORT", description = "Clear-text HTTP/2 port (default: ${DEFAULT-VALUE}).")
    int h2cPort = Listener.H2C.defaultPort();

    @Option(names = "--h3-port", paramLabel = "PORT",
            description = "HTTP/3 (QUIC, UDP) port, 0 = any free one (default: the h2 listener's port number, as sites serve h3 beside TCP).")
    int h3Port = Http3Listener.ON_H2_PORT;

    @Option(names = "--keystore", paramLabel = "FILE",
            description = "PKCS12 key store to serve TLS with, its key as it is (default: a self-signed certificate generated "
                    + "into ~/.h2bench/localhost-ecdsa.p12, or localhost.p12 with --tls-profile jsse).")
    Path keystore;

    @Option(names = "--keystore-password", paramLabel = "PASSWORD", description = "Password of --keystore.")
    String keystorePassword;

    @Option(names = "--tls-profile", paramLabel = "NAME", converter = TlsProfileConverter.class,
            description = "web: an ECDSA P-256 certificate and AES-128-GCM first, as Caddy and nginx serve browsers; "
                    + "jsse: a 2048-bit RSA certificate and JSSE's order (AES-256-GCM first), as h2bench served before "
                    + "(default: ${DEFAULT-VALUE}). With --keystore it sets the cipher order only.")
    TlsProfile tlsProfile = TlsProfile.WEB;

    @Option(names = "--tls-provider", paramLabel = "NAME", converter = TlsProviderConverter.class,
            description = "What runs the TCP TLS listeners (h1-tls, h2): conscrypt, BoringSSL in native code as maintained "
                    + "servers' TLS is (TLS 1.3's cipher in the client's order, as nginx; two TLS 1.3 session tickets); "
                    + "jsse, the JDK's, as h2bench ran before (default: ${DEFAULT-VALUE}; jsse where Conscrypt cannot load).")
    TlsProvider tlsProvider = TlsProvider.CONSCRYPT;

    @Option(names = "--warm-up", paramLabel = "CONNECTIONS",
            description = "New connections the server makes to each of its listeners (the four TCP ones and h3) before it is "
                    + "ready, so that the JIT has compiled TLS, HTTP/1.1, HTTP/2 and HTTP/3 before the first client; "
                    + "0 = none (default: ${DEFAULT-VALUE}).")
    int warmUp = WarmUp.DEFAULT_CONNECTIONS;

    @Option(names = "--selectors", paramLabel = "N",
            description = "Selector threads per TCP listener, each reading, parsing and answering its connections' requests; "
                    + "0 = Jetty's count, max(1, min(cores / 2, 200 threads / 16)): one on two cores (default: ${DEFAULT-VALUE}).")
    int selectors = ServerSettings.JETTY_SELECTORS;

    @Option(names = "--max-connections", paramLabel = "N",
            description = "Open connections per listener; more are closed at once (default: ${DEFAULT-VALUE}).")
    int maxConnections = ServerSettings.DEFAULT_MAX_CONNECTIONS;

    @Option(names = "--max-connections-per-client", paramLabel = "N",
            description = "Open connections per listener from one client address; more are closed at once (default: ${DEFAULT-VALUE}; "
                    + "not applied behind the byte proxy, where every connection comes from the proxy).")
    int maxConnectionsPerClient = ServerSettings.DEFAULT_MAX_CONNECTIONS_PER_CLIENT;

    @Option(names = "--qlog-dir", paramLabel = "DIR",
            description = "Write quiche's qlog of each HTTP/3 connection into DIR, one .sqlog file per connection "
                    + "(its congestion window, RTT samples and losses, for qvis or benchmarks/quiche-qlog.py).")
    Path qlogDir;

    @Option(names = "--h3-congestion-control", paramLabel = "NAME",
            description = "HTTP/3's congestion control: cubic, reno or bbr (default: ${DEFAULT-VALUE}, as quiche and Linux TCP).")
    String h3CongestionControl = QuicOptions.DEFAULT_CONGESTION_CONTROL;

    @Option(names = "--h3-initial-window", paramLabel = "PACKETS",
            description = "HTTP/3's initial congestion window in packets (default: ${DEFAULT-VALUE}, as TCP and quiche; "
                    + "32 models quic-go and Google's servers).")
    int h3InitialWindow = QuicOptions.DEFAULT_INITIAL_WINDOW;

    @Option(names = "--h3-retry",
            description = "Answer each new QUIC connection's first Initial with a Retry, as a server under attack validates "
                    + "client addresses: one more round trip per connection (default: off, as maintained servers).")
    boolean h3Retry;

    @Mixin
    NetemOptions netem = new NetemOptions();

    @Mixin
    EngineOptions engine = new EngineOptions();

    private final PrintStream out;

    Main(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Parses, starts and blocks until stopped; returns the process exit code. */
    static int run(PrintStream out, PrintStream err, String... args) {
        CommandLine command = new CommandLine(new Main(out));
        command.setOut(new java.io.PrintWriter(out, true));
        command.setErr(new java.io.PrintWriter(err, true));
        command.setExecutionExceptionHandler((e, cmd, parsed) -> {
            err.println("h2bench-server: " + e.getMessage());
            return 2;
        });
        return command.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if (engine.hasCommand() && ClientCommand.needsUserNamespace(engine.engine)) {
            return ClientCommand.reexecInUserNamespace();
        }
        ServerSettings settings = settings();
        if (qlogDir != null) {
            settings = settings.withQuic(settings.quic().withQlogDirectory(writableDirectory(qlogDir, "--qlog-dir")));
        }
        try (H2BenchServer server = H2BenchServer.start(settings, engine.networkEngine())) {
            printBanner(server);
            if (engine.hasCommand()) {
                return ClientCommand.run(engine.command, server);
            }
            server.join();
        } finally {
            out.flush();
        }
        return 0;
    }

    /** {@code directory}, made if missing; a clear error for the option when it cannot be written. */
    private static Path writableDirectory(Path directory, String option) throws IOException {
        try {
            Files.createDirectories(directory);
        } catch (IOException notMade) {
            throw new IOException(option + " " + directory + ": cannot create the directory (" + notMade + ")", notMade);
        }
        if (!Files.isWritable(directory)) {
            throw new IOException(option + " " + directory + ": the directory is not writable");
        }
        return directory.toAbsolutePath();
    }

    ServerSettings settings() {
        ServerSettings settings = ServerSettings.defaults()
                .withBind(bind)
                .withPort(Listener.H1, h1Port)
                .withPort(Listener.H1_TLS, tlsPort)
                .withPort(Listener.H2, h2Port)
                .withPort(Listener.H2C, h2cPort)
                .withH3Port(h3Port)
                .withConnectionCaps(maxConnections, maxConnectionsPerClient)
                .withQuic(QuicOptions.defaults().withCongestionControl(h3CongestionControl, h3InitialWindow).withRetry(h3Retry))
                .withTlsProfile(tlsProfile)
                .withTlsProvider(tlsProvider)
                .withWarmUp(warmUp)
                .withSelectors(selectors);
        settings = settings.withNetwork(netem.profile());
        return keystore == null ? settings : settings.withKeystore(keystore, keystorePassword);
    }

    private void printBanner(H2BenchServer server) {
        TlsMaterial tls = server.tls();
        out.println("h2bench server: TLS " + tls.keyDescription() + " certificate " + tls.keystore()
                + (tls.generated() ? " (generated now)" : "") + ", SHA-256 " + tls.fingerprint());
        TlsProfile profile = server.tlsProfile();
        out.println("tls: profile " + profile.flagValue() + ": " + (keystore == null ? profile.description() : tls.keyDescription()
                + " certificate (--keystore), " + profile.description().replaceFirst("^.*certificate, ", ""))
                + (profile == TlsProfile.WEB ? " (--tls-profile jsse: RSA 2048 and JSSE's order, as before)" : "")
                + (profile == TlsProfile.JSSE && server.tlsProvider() == TlsProvider.CONSCRYPT
                        ? "; on Conscrypt, BoringSSL's own order for TLS 1.2 (AES-128-GCM first)" : ""));
        out.println(TlsProvider.bannerLine(server.tlsProvider(), server.tlsProviderFallbackReason()));
        WarmUp.Result warmed = server.warmUp();
        out.println("warm-up: " + (warmed.connections() == 0 && warmed.failure() == null ? "none (--warm-up 0)"
                : warmed.describe() + ", before the first client (--warm-up 0 skips it)"));
        out.println("selectors: " + server.selectorsPerListener() + " per TCP listener on " + Runtime.getRuntime().availableProcessors()
                + " cores" + (selectors == ServerSettings.JETTY_SELECTORS ? ", Jetty's count (--selectors N sets it)" : " (--selectors)"));
        out.println("network: " + server.network().describe());
        EngineBanner.print(out, server);
        for (Listener listener : Listener.values()) {
            out.println();
            String conditions = server.network().isIdeal() ? "" : " [" + server.network().describe() + "]";
            out.println(listener.id() + " - " + listener.description() + conditions);
            for (String family : TestObjects.FAMILIES) {
                out.println("  " + server.baseUri(listener) + family);
            }
        }
        printH3(server);
        out.println();
        out.println("h2bench server ready; Ctrl-C stops it.");
        out.flush();
    }

    /** {@code --tls-profile web|jsse}, in any case. */
    static final class TlsProfileConverter implements CommandLine.ITypeConverter<TlsProfile> {
        @Override
        public TlsProfile convert(String value) {
            return TlsProfile.of(value);
        }
    }

    /** {@code --tls-provider conscrypt|jsse}, in any case. */
    static final class TlsProviderConverter implements CommandLine.ITypeConverter<TlsProvider> {
        @Override
        public TlsProvider convert(String value) {
            return TlsProvider.of(value);
        }
    }

    private void printH3(H2BenchServer server) {
        out.println();
        if (server.h3NotStartedReason() != null) {
            out.println(Http3Listener.ID + " - " + server.h3NotStartedReason());
            return;
        }
        String conditions = server.network().isIdeal() ? "" : " [" + server.network().describe() + "]";
        out.println(Http3Listener.ID + " - " + Http3Listener.DESCRIPTION + ", announced by Alt-Svc on h1-tls and h2" + conditions);
        out.println("  QUIC: " + server.h3Options().describe() + "; " + QuicheLibrary.loaded().describe()
                + (server.h3SegmentsWrites() ? "; a burst's datagrams in one write (GSO)" : "; one datagram per write"));
        for (String family : TestObjects.FAMILIES) {
            out.println("  " + server.h3BaseUri() + family);
        }
    }
}
