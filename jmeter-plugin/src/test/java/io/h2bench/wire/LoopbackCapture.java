package io.h2bench.wire;

import io.h2bench.parity.TempDirs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A live tshark capture of loopback TCP traffic to a set of server ports, and of UDP to one: the
 * outside witness the sampler's byte counts and times are checked against. Counts TCP payload bytes
 * per server port and direction as the sequence numbers cover them, so that a resent byte adds
 * nothing (summing segments that tshark did not flag as retransmissions once counted 131 kB more
 * than were sent, in a busy CI run); keeps every TCP segment and every UDP datagram, in the order
 * captured, with the kernel's time stamp, since QUIC's bytes are checked datagram by datagram and
 * every protocol's phases packet by packet.
 */
public final class LoopbackCapture implements AutoCloseable {

    private static final Path SCRATCH = TempDirs.deletedAtExit("h2bench-tshark");
    private static final int RST = 0x04;

    private final Process tshark;
    private final List<Integer> ports;
    private final Map<String, Long> bytes = new ConcurrentHashMap<>();
    /** Per TCP stream and direction: the relative sequence number after the last payload byte seen. */
    private final Map<String, Long> covered = new HashMap<>();
    /** Client ports whose RST tshark printed and no sync has taken yet: a probe's RST is its last packet. */
    private final Set<Integer> resetPorts = ConcurrentHashMap.newKeySet();
    private final List<Datagram> datagrams = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<Segment> segments = java.util.Collections.synchronizedList(new ArrayList<>());
    private final int udpPort;
    private final Path messages;
    private final long socketDropsAtStart = udpReceiveBufferErrors();
    private final Thread reader;

    private LoopbackCapture(Process tshark, List<Integer> ports, int udpPort, Path messages) {
        this.tshark = tshark;
        this.messages = messages;
        this.ports = ports;
        this.udpPort = udpPort;
        this.reader = new Thread(this::readPackets, "tshark-packets");
        this.reader.setDaemon(true);
    }

    /** True when tshark is installed and may capture here (CI installs it; root may capture). */
    public static boolean available() {
        try {
            Process probe = new ProcessBuilder("tshark", "-D").redirectErrorStream(true).start();
            String interfaces = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return probe.waitFor(20, TimeUnit.SECONDS) && probe.exitValue() == 0 && interfaces.contains("lo");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts capturing TCP to {@code serverPorts} and returns once the capture is live (see {@link #sync()}). */
    public static LoopbackCapture start(List<Integer> serverPorts) throws IOException, InterruptedException {
        return start(serverPorts, 0);
    }

    /**
     * Starts capturing TCP to {@code serverPorts} and UDP to {@code udpPort} (none when 0) and returns
     * once the capture is live; its probes go to the first TCP port.
     */
    public static LoopbackCapture start(List<Integer> serverPorts, int udpPort) throws IOException, InterruptedException {
        String filter = serverPorts.stream().map(port -> "tcp port " + port).collect(Collectors.joining(" or "))
                + (udpPort > 0 ? " or udp port " + udpPort : "");
        // Headers only (-s 128) into a 64 MiB kernel buffer (-B): tcp.len comes from the IP header, and a
        // busy machine's tshark falls behind 64 KiB loopback packets and dropped whole ones with the defaults.
        ProcessBuilder builder = new ProcessBuilder("tshark", "-i", "lo", "-s", "128", "-B", "64", "-f", filter, "-l", "-n",
                "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.len",
                "-e", "tcp.stream", "-e", "frame.time_epoch",
                "-e", "udp.srcport", "-e", "udp.dstport", "-e", "udp.length", "-e", "tcp.seq",
                // Added for the times: a SYN-ACK is told by its flags, a QUIC long header by its first byte.
                "-e", "tcp.flags", "-e", "udp.payload",
                // Nothing above UDP is read: QUIC's dissector (it tries every Initial's keys) only slows tshark down.
                "--disable-protocol", "quic");
        // Its messages end with the packets it dropped, which a witness must own up to (see dropped()).
        Path messages = Files.createTempFile(SCRATCH, "tshark", ".txt");
        builder.redirectError(messages.toFile());
        // tshark keeps a temporary pcapng file and, stopped by SIGTERM, leaves it: in a directory of ours.
        builder.environment().put("TMPDIR", SCRATCH.toString());
        Process tshark = builder.start();
        LoopbackCapture capture = new LoopbackCapture(tshark, List.copyOf(serverPorts), udpPort, messages);
        capture.reader.start();
        try {
            capture.sync();
        } catch (IOException e) {
            capture.close();
            throw e;
        }
        return capture;
    }

    /**
     * Returns once tshark has printed every packet sent before this call: it opens an empty TCP
     * connection to the first port (no payload, so it counts for nothing), resets it, and waits for
     * that reset, which tshark prints in order, after everything before it. tshark's own "Capturing
     * on" line can come before the capture is live, and its output lags the wire. Not any packet
     * ever seen from the probe's port: a probe may get the port of a connection closed earlier, and
     * a sync then returned at once, before the packets of an exchange that had just ended were
     * printed (WireTimesTest saw a connection's start among the next exchange's packets).
     */
    public void sync() throws IOException, InterruptedException {
        // A reset printed before this call is no sign of its probes, whatever its port.
        resetPorts.clear();
        Set<Integer> probes = new java.util.HashSet<>();
        for (int attempt = 0; attempt < 50; attempt++) {
            if (!tshark.isAlive()) {
                throw new IOException("tshark stopped; exit code " + tshark.exitValue());
            }
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), ports.get(0))) {
                probes.add(probe.getLocalPort());
                probe.setSoLinger(true, 0);
            }
            for (int wait = 0; wait < 20; wait++) {
                // Any of this call's probes: a slow tshark (its first second) prints one after the next has begun.
                if (probes.stream().anyMatch(resetPorts::contains)) {
                    return;
                }
                Thread.sleep(10);
            }
        }
        throw new IOException("tshark printed no packet of a probe connection within 10 s");
    }

    /**
     * Payload bytes seen so far, once every packet sent before this call is in: key
     * {@code port + ">"} = to the server, {@code port + "<"} = from it.
     */
    public Map<String, Long> countSoFar() throws IOException, InterruptedException {
        sync();
        return Map.copyOf(bytes);
    }

    /** The UDP datagrams to and from the UDP port seen so far, once every packet sent before this call is in. */
    public List<Datagram> datagramsSoFar() throws IOException, InterruptedException {
        sync();
        synchronized (datagrams) {
            return List.copyOf(datagrams);
        }
    }

    /** The TCP segments to and from the server ports seen so far, once every packet sent before this call is in. */
    public List<Segment> segmentsSoFar() throws IOException, InterruptedException {
        sync();
        synchronized (segments) {
            return List.copyOf(segments);
        }
    }

    /** After {@link #close()}: the packets tshark says it dropped (the kernel's buffer was full), 0 when it says none. */
    public long dropped() throws IOException {
        Matcher dropped = Pattern.compile("(\\d+) packets? dropped").matcher(Files.readString(messages, StandardCharsets.UTF_8));
        long sum = 0;
        while (dropped.find()) {
            sum += Long.parseLong(dropped.group(1));
        }
        return sum;
    }

    /**
     * UDP datagrams the machine's sockets dropped since the capture started, their receive buffer
     * full (the kernel's RcvbufErrors, for every socket): loopback hands tshark a datagram before
     * the socket's buffer takes it, so the capture then shows a datagram that the client never read.
     */
    public long udpDroppedBySockets() throws IOException {
        return udpReceiveBufferErrors() - socketDropsAtStart;
    }

    private static long udpReceiveBufferErrors() {
        try {
            List<String> udp = Files.readAllLines(Path.of("/proc/net/snmp")).stream().filter(line -> line.startsWith("Udp: ")).toList();
            List<String> names = List.of(udp.get(0).split(" "));
            return Long.parseLong(udp.get(1).split(" ")[names.indexOf("RcvbufErrors")]);
        } catch (IOException | RuntimeException unreadable) {
            return 0;
        }
    }

    @Override
    public void close() {
        if (tshark.isAlive()) {
            // SIGTERM: tshark prints what it has and exits.
            tshark.destroy();
            try {
                if (!tshark.waitFor(20, TimeUnit.SECONDS)) {
                    tshark.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void readPackets() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(tshark.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                count(line.split("\t", -1));
            }
        } catch (IOException e) {
            // tshark ended.
        }
    }

    private void count(String[] fields) {
        if (fields.length >= 8 && !fields[5].isEmpty()) {
            keep(fields);
            return;
        }
        if (fields.length < 3 || fields[0].isEmpty()) {
            return;
        }
        int source = Integer.parseInt(fields[0]);
        if (fields.length >= 10 && !fields[9].isEmpty() && (Integer.decode(fields[9]) & RST) != 0) {
            resetPorts.add(source);
        }
        if (fields[2].isEmpty() || fields.length < 9 || fields[8].isEmpty()) {
            return;
        }
        int destination = Integer.parseInt(fields[1]);
        String key = ports.contains(destination) ? destination + ">" : ports.contains(source) ? source + "<" : null;
        if (key == null) {
            return;
        }
        if (fields.length >= 10 && !fields[9].isEmpty()) {
            boolean toServer = ports.contains(destination);
            segments.add(new Segment(micros(fields[4]), toServer ? source : destination, toServer,
                    Integer.parseInt(fields[2]), Integer.decode(fields[9])));
        }
        // Relative sequence numbers start at 1, after the SYN: bytes below the highest end seen were counted.
        long end = Long.parseLong(fields[8]) + Long.parseLong(fields[2]);
        String stream = fields[3] + key;
        long before = covered.getOrDefault(stream, 1L);
        if (end > before) {
            covered.put(stream, end);
            bytes.merge(key, end - before, Long::sum);
        }
    }

    private void keep(String[] fields) {
        int source = Integer.parseInt(fields[5]);
        int destination = Integer.parseInt(fields[6]);
        boolean toServer = destination == udpPort;
        // udp.length counts the 8-byte UDP header; the sampler counts payloads.
        String payload = fields.length >= 11 ? fields[10] : "";
        datagrams.add(new Datagram(micros(fields[4]), toServer ? source : destination,
                toServer, Integer.parseInt(fields[7]) - 8, payload.length() < 2 ? -1 : Integer.parseInt(payload.substring(0, 2), 16)));
    }

    private static long micros(String epochSeconds) {
        return Math.round(Double.parseDouble(epochSeconds) * 1_000_000);
    }

    /**
     * One UDP datagram: when it was captured (µs since the epoch), the client's port, its direction,
     * payload bytes and the payload's first byte (QUIC's header form; -1 if none was captured).
     */
    public record Datagram(long micros, int clientPort, boolean toServer, int payload, int firstByte) {

        /** A QUIC long header (Initial, Handshake, Retry): the handshake's; 1-RTT packets have short ones (RFC 9000 17.2). */
        public boolean longHeader() {
            return firstByte >= 0 && (firstByte & 0x80) != 0;
        }

        /** A Retry packet (long header, type 3): a server's address validation, before its handshake. */
        public boolean retry() {
            return longHeader() && (firstByte & 0x30) == 0x30;
        }
    }

    /** One TCP segment: when it was captured (µs since the epoch), the client's port, its direction, payload bytes and flags. */
    public record Segment(long micros, int clientPort, boolean toServer, int payload, int flags) {

        public boolean syn() {
            return (flags & 0x02) != 0;
        }

        public boolean ack() {
            return (flags & 0x10) != 0;
        }
    }
}
