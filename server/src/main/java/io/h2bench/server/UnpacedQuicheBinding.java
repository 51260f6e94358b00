package io.h2bench.server;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

import com.sun.jna.Function;
import com.sun.jna.Library;
import org.eclipse.jetty.quic.quiche.Quiche;
import org.eclipse.jetty.quic.quiche.QuicheBinding;
import org.eclipse.jetty.quic.quiche.QuicheConfig;
import org.eclipse.jetty.quic.quiche.QuicheConstants;
import org.eclipse.jetty.quic.quiche.jna.JnaQuicheBinding;
import org.eclipse.jetty.quic.quiche.jna.JnaQuicheConnection;
import org.eclipse.jetty.quic.quiche.jna.LibQuiche;
import org.eclipse.jetty.quic.quiche.jna.SizedStructure;
import org.eclipse.jetty.quic.quiche.jna.bool;
import org.eclipse.jetty.quic.quiche.jna.size_t;
import org.eclipse.jetty.quic.quiche.jna.size_t_pointer;
import org.eclipse.jetty.quic.quiche.jna.sockaddr;
import org.eclipse.jetty.quic.quiche.jna.uint32_t;
import org.eclipse.jetty.quic.quiche.jna.uint32_t_pointer;
import org.eclipse.jetty.quic.quiche.jna.uint8_t_pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's quiche binding, with quiche's pacing switched off in the connections the h3 listener
 * accepts, as curl does for its own quiche connections.
 *
 * <p>With pacing on, quiche stamps each packet with the time its pacer would release it and expects
 * the caller to hold the datagram until then ({@code quiche_send_info.at}); Jetty 12.1.5 sends every
 * datagram at once. A burst's later packets then carry send times in the future, their RTT samples
 * come out short (101 falling to 61 ms within one burst behind a 100 ms link, min_rtt 0 in five of six
 * connections), HyStart++ reads the true RTT as a rise and leaves slow start early, and a cold 2 MB
 * download over h3 took 1.7 to 5.3 s where h2 took 1.02 to 1.07 (the seed 000 page). Without pacing
 * quiche stamps packets when they are made, which is when Jetty sends them.
 *
 * <p>Jetty builds the native config inside its private accept, so this binding accepts itself: it
 * reads the packet's header, validates the token, builds Jetty's config and switches pacing off
 * before {@code quiche_accept} copies it into the connection. The rest is Jetty's binding. Chosen
 * over it by {@link #priority()}; a Jetty whose internals differ fails {@link #initialize()} and
 * Jetty's own binding is used instead ({@link #inUse()} tells which).
 */
public final class UnpacedQuicheBinding implements QuicheBinding {

    private static final Logger LOG = LoggerFactory.getLogger(UnpacedQuicheBinding.class);

    /** Set once this binding initialised, which Jetty does when it first needs quiche (the h3 listener's start). */
    private static volatile boolean chosen;
    private static volatile Path qlogDirectory;

    private final JnaQuicheBinding jetty = new JnaQuicheBinding();
    private Method buildConfig;
    private Constructor<JnaQuicheConnection> connection;
    private Function enablePacing;

    /** Whether Jetty's quiche calls go through this binding: false before quiche's first use, or if it could not start. */
    public static boolean inUse() {
        return chosen;
    }

    /** From now on, quiche writes the qlog of each accepted connection into {@code directory} (null: none). */
    public static void writeQlogInto(Path directory) {
        qlogDirectory = directory;
    }

    @Override
    public Throwable initialize() {
        Throwable failure = jetty.initialize();
        if (failure != null) {
            return failure;
        }
        try {
            buildConfig = JnaQuicheConnection.class.getDeclaredMethod("buildConfig", QuicheConfig.class);
            buildConfig.setAccessible(true);
            connection = JnaQuicheConnection.class.getDeclaredConstructor(
                    LibQuiche.quiche_conn.class, LibQuiche.quiche_config.class);
            connection.setAccessible(true);
            Library.Handler handler = (Library.Handler) Proxy.getInvocationHandler(LibQuiche.INSTANCE);
            enablePacing = handler.getNativeLibrary().getFunction("quiche_config_enable_pacing");
            chosen = true;
            return null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError unexpected) {
            return unexpected;
        }
    }

    /** Before Jetty's binding (200): Jetty uses the binding of the lowest priority that initialises. */
    @Override
    public int priority() {
        return 100;
    }

    @Override
    public byte[] fromPacket(ByteBuffer packet) {
        return jetty.fromPacket(packet);
    }

    @Override
    public Quiche connect(QuicheConfig config, InetSocketAddress local, InetSocketAddress peer, int connectionIdLength)
            throws IOException {
        return jetty.connect(config, local, peer, connectionIdLength);
    }

    @Override
    public boolean negotiate(Quiche.TokenMinter minter, ByteBuffer packetRead, ByteBuffer packetToSend) throws IOException {
        return jetty.negotiate(minter, packetRead, packetToSend);
    }

    /**
     * A connection for a client's Initial that carries a valid token (from the retry that
     * {@link #negotiate} sent), with pacing off; null when the packet needs negotiating first.
     * Consumes the packet when it accepts.
     */
    @Override
    public Quiche tryAccept(QuicheConfig config, Quiche.TokenValidator validator, ByteBuffer packet, SocketAddress local,
                            SocketAddress peer) throws IOException {
        Header header = Header.of(packet);
        if (!header.versionSupported() || header.token.length == 0) {
            return null;
        }
        byte[] originalId = validator.validate(header.token, header.token.length);
        if (originalId == null) {
            throw new Quiche.TokenValidationException("invalid address validation token");
        }
        LibQuiche.quiche_config nativeConfig = invoke(() -> (LibQuiche.quiche_config) buildConfig.invoke(null, config));
        enablePacing.invokeVoid(new Object[]{nativeConfig.getPointer(), new bool(false)});
        SizedStructure<sockaddr> localAddress = sockaddr.convert(local);
        SizedStructure<sockaddr> peerAddress = sockaddr.convert(peer);
        LibQuiche.quiche_conn accepted = LibQuiche.INSTANCE.quiche_accept(
                header.destinationId, new size_t(header.destinationId.length), originalId, new size_t(originalId.length),
                localAddress.getStructure(), localAddress.getSize(), peerAddress.getStructure(), peerAddress.getSize(),
                nativeConfig);
        if (accepted == null) {
            LibQuiche.INSTANCE.quiche_config_free(nativeConfig);
            throw new IOException("quiche could not accept the connection");
        }
        JnaQuicheConnection quiche = invoke(() -> connection.newInstance(accepted, nativeConfig));
        qlog(quiche, header.destinationId, peer);
        if (packet.hasRemaining()) {
            quiche.feedCipherBytes(packet, local, peer);
        }
        return quiche;
    }

    /** One .sqlog per connection, named by the connection ID the client chose after the Retry. */
    private static void qlog(JnaQuicheConnection quiche, byte[] connectionId, SocketAddress peer) {
        Path directory = qlogDirectory;
        if (directory == null) {
            return;
        }
        Path file = directory.resolve(HexFormat.of().formatHex(connectionId) + ".sqlog");
        try {
            quiche.enableQlog(file.toString(), "h2bench-server", "h3 connection from " + peer);
        } catch (IOException notWritten) {
            LOG.warn("No qlog for the h3 connection from {}: {}", peer, notWritten.getMessage());
        }
    }

    private interface Reflective<T> {
        T call() throws ReflectiveOperationException;
    }

    private static <T> T invoke(Reflective<T> call) throws IOException {
        try {
            return call.call();
        } catch (InvocationTargetException thrown) {
            if (thrown.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("Jetty's quiche binding failed", thrown.getCause());
        } catch (ReflectiveOperationException unexpected) {
            throw new IOException("Jetty's quiche binding changed", unexpected);
        }
    }

    /** What {@code quiche_header_info} reads from a long-header packet. */
    private record Header(int version, byte[] destinationId, byte[] token) {

        static Header of(ByteBuffer packet) throws IOException {
            uint8_t_pointer type = new uint8_t_pointer();
            uint32_t_pointer version = new uint32_t_pointer();
            byte[] source = new byte[QuicheConstants.QUICHE_MAX_CONN_ID_LEN];
            size_t_pointer sourceLength = new size_t_pointer(source.length);
            byte[] destination = new byte[QuicheConstants.QUICHE_MAX_CONN_ID_LEN];
            size_t_pointer destinationLength = new size_t_pointer(destination.length);
            byte[] token = new byte[Quiche.TokenMinter.MAX_TOKEN_LENGTH];
            size_t_pointer tokenLength = new size_t_pointer(token.length);
            int rc = LibQuiche.INSTANCE.quiche_header_info(packet, new size_t(packet.remaining()),
                    new size_t(QuicheConstants.QUICHE_MAX_CONN_ID_LEN), version, type, source, sourceLength,
                    destination, destinationLength, token, tokenLength);
            if (rc < 0) {
                throw new IOException("not a QUIC packet header (quiche error " + rc + ")");
            }
            return new Header(version.getValue(), Arrays.copyOf(destination, (int) destinationLength.getValue()),
                    Arrays.copyOf(token, (int) tokenLength.getValue()));
        }

        boolean versionSupported() {
            return LibQuiche.INSTANCE.quiche_version_is_supported(new uint32_t(version)).isTrue();
        }
    }
}
