package io.h2bench.server.netem.kernel;

import io.h2bench.server.netem.LinkProfile;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An emulated link between the host's network namespace (the clients) and a fresh one that holds
 * the server's sockets: two TUN devices and, per direction, a {@link Relay} that applies the
 * {@link LinkProfile}'s loss, rate, queue and delay to every IP packet. Both ends are the kernel's
 * own TCP, so slow start, congestion control and loss recovery are real. See package-info.
 */
public final class KernelLink implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KernelLink.class.getName());
    /** A port nothing listens on: the packets that wake the readers at close are simply dropped. */
    private static final int DISCARD_PORT = 9;

    private final LinkAddresses addresses;
    private final NetworkNamespace namespace;
    private final Tun hostTun;
    private final Tun serverTun;
    private final Relay up;
    private final Relay down;
    private final LinkOptions options;
    private volatile boolean closed;

    private KernelLink(LinkAddresses addresses, NetworkNamespace namespace, Tun hostTun, Tun serverTun,
                       LinkProfile profile, LinkOptions options) {
        this.addresses = addresses;
        this.namespace = namespace;
        this.hostTun = hostTun;
        this.serverTun = serverTun;
        this.options = options;
        long oneWay = profile.rtt().toNanos() / 2;
        this.up = new Relay("up", hostTun, serverTun,
                PacketLoss.of(options.lossPattern(), profile.loss(), profile.seed(), false),
                new LinkShaper(profile.upBitsPerSecond(), oneWay, options.queuePackets()));
        this.down = new Relay("down", serverTun, hostTun,
                PacketLoss.of(options.lossPattern(), profile.loss(), profile.seed(), true),
                new LinkShaper(profile.downBitsPerSecond(), oneWay, options.queuePackets()));
    }

    /**
     * Creates the namespace, both devices and the relays. Fails with a one-line reason when this
     * process may not (not root, no user namespace, no /dev/net/tun, no such congestion control).
     */
    public static KernelLink start(LinkProfile profile, LinkOptions options) throws IOException {
        NetworkNamespace namespace = NetworkNamespace.create();
        List<AutoCloseable> opened = new ArrayList<>(List.of(namespace));
        try {
            LinkAddresses addresses = null;
            Tun hostTun = null;
            for (int i = 0; i < LinkAddresses.MAX_LINKS && hostTun == null; i++) {
                addresses = new LinkAddresses(i);
                hostTun = openUnlessBusy(addresses.device());
            }
            if (hostTun == null) {
                throw new IOException("all " + LinkAddresses.MAX_LINKS + " link devices h2b0.. are in use");
            }
            opened.add(0, hostTun);
            String device = addresses.device();
            Tun serverTun = namespace.call(() -> Tun.open(device));
            opened.add(0, serverTun);
            LinkSetup.configure(addresses, namespace, options.congestionControl());
            KernelLink link = new KernelLink(addresses, namespace, hostTun, serverTun, profile, options);
            link.up.start();
            link.down.start();
            return link;
        } catch (IOException | RuntimeException e) {
            opened.forEach(KernelLink::closeQuietly);
            throw e;
        } catch (InterruptedException e) {
            opened.forEach(KernelLink::closeQuietly);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the link", e);
        }
    }

    /**
     * Whether this process holds CAP_SYS_ADMIN (root, or root of its user namespace, with its
     * capabilities), which creating the link's network namespace needs.
     */
    public static boolean mayCreateNamespaces() {
        return Capabilities.effective().get(Capabilities.CAP_SYS_ADMIN);
    }

    /** Runs {@code task} on a thread inside the server's namespace: open listening sockets there. */
    public <T> T inNamespace(Callable<T> task) throws IOException {
        return namespace.call(task);
    }

    /** The address clients connect to (the server side of the link). */
    public String serverAddress() {
        return addresses.serverAddress();
    }

    /** The host side's address, where the server sees its clients come from. */
    public String clientAddress() {
        return addresses.clientAddress();
    }

    /** The host's device name, e.g. h2b0. */
    public String device() {
        return addresses.device();
    }

    /** {@code nsenter --net=PATH}, valid while this link is open. */
    public String namespacePath() {
        return namespace.path();
    }

    public LinkOptions options() {
        return options;
    }

    /** Runs a command (e.g. {@code ss -tin}) inside the server's namespace and returns its output. */
    public String runInNamespace(String... command) throws IOException {
        return LinkSetup.runIn(namespace, command);
    }

    /** Why the relay threads could not get real-time priority; null when they did. */
    public String priorityProblem() {
        String problem = up.priorityProblem();
        return problem != null ? problem : down.priorityProblem();
    }

    public LinkCounters counters() {
        long hostDropped = TunStatistics.txDropped(hostTun.name());
        long serverDropped = closed ? 0 : callQuietly(() -> TunStatistics.txDropped(serverTun.name()));
        return new LinkCounters(up.counters(), down.counters(), hostDropped, serverDropped);
    }

    /**
     * Stops both relays: wakes each blocked reader with one datagram through its device, then
     * closes the devices and leaves the namespace, which the kernel removes with its last socket.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        up.stop();
        down.stop();
        wake(addresses.serverAddress());
        callQuietly(() -> wake(addresses.clientAddress()));
        try {
            if (!up.join(2000) || !down.join(2000)) {
                LOG.warning("a link relay thread did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(hostTun);
        closeQuietly(serverTun);
        closeQuietly(namespace);
    }

    private static Tun openUnlessBusy(String device) throws IOException {
        try {
            return Tun.open(device);
        } catch (Tun.TunException e) {
            if (e.busy()) {
                return null;
            }
            throw e;
        }
    }

    private static Long wake(String address) {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.send(ByteBuffer.wrap(new byte[1]), new InetSocketAddress(address, DISCARD_PORT));
        } catch (IOException e) {
            LOG.log(Level.FINE, "waking the relay", e);
        }
        return 0L;
    }

    private long callQuietly(Callable<Long> task) {
        try {
            return namespace.call(task);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "in the link's namespace", e);
            return 0;
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.log(Level.FINE, "closing the link", e);
        }
    }
}
