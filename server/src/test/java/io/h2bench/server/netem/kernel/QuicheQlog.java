package io.h2bench.server.netem.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One QUIC connection as the h3 listener's quiche lived it, read from its qlog in the order quiche
 * logged its events: the round trip whose ACKs released each packet, and the congestion window it
 * held. Counted by cause, not by time: a busy machine delays events but cannot reorder quiche's.
 * Only 1-RTT packets: the response's, whose ACKs come in 1-RTT packets too.
 */
final class QuicheQlog {

    private static final Pattern WALL_CLOCK = Pattern.compile("\"wall_clock_time\":\"([^\"]+)\"");
    private static final Pattern WINDOW = Pattern.compile("\"name\":\"quic:recovery_metrics_updated\".*\"congestion_window\":(\\d+)");
    private static final Pattern NEW_LOSS = Pattern.compile("\"cf_lost_packets\":\\{\"total\":\\d+,\"delta\":[1-9]");
    private static final Pattern ONE_RTT = Pattern.compile("\"packet_type\":\"1RTT\",\"packet_number\":(\\d+)");
    private static final Pattern STREAM = Pattern.compile("\\{\"frame_type\":\"stream\",\"stream_id\":(\\d+),[^}]*\"payload_length\":(\\d+)");
    private static final Pattern ACKED_RANGES = Pattern.compile("\"frame_type\":\"ack\"[^\\]]*\"acked_ranges\":\\[([0-9,\\[\\] ]*)\\]");
    private static final Pattern TIME = Pattern.compile("\\{\"time\":([0-9.]+)");
    private static final Pattern MIN_RTT = Pattern.compile("\"min_rtt\":([0-9.]+)");
    private static final Pattern LATEST_RTT = Pattern.compile("\"latest_rtt\":([0-9.]+)");
    private static final Pattern SENT_AT = Pattern.compile("\"send_at_time\":([0-9.]+)");
    private static final Pattern PACKET_LENGTH = Pattern.compile("\"raw\":\\{\"length\":(\\d+)");
    private static final Pattern SMOOTHED_RTT = Pattern.compile("\"smoothed_rtt\":([0-9.]+)");
    private static final Pattern RANGE = Pattern.compile("\\[(\\d+)(?:,(\\d+))?\\]");
    /** A frame that makes the peer acknowledge its packet: any but ACK and PADDING. */
    private static final Pattern ACK_ELICITING = Pattern.compile("\"frame_type\":\"(?!ack\"|padding\")");

    private final String qlog;

    private QuicheQlog(String qlog) {
        this.qlog = qlog;
    }

    /** The qlog of the connection that began last among the qlogs in {@code directory}. */
    static QuicheQlog ofLastConnection(Path directory) throws IOException {
        List<String> qlogs = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(name -> name.toString().endsWith(".qlog")).toList()) {
                qlogs.add(Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        assertThat(qlogs).as("the server's qlogs").isNotEmpty();
        return new QuicheQlog(qlogs.stream().max(Comparator.comparing(QuicheQlog::began)).orElseThrow());
    }

    /** The qlog of the one connection in {@code directory}: there must be exactly one. */
    static QuicheQlog ofOnlyConnection(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            List<Path> qlogs = files.filter(name -> name.toString().endsWith(".qlog")).toList();
            assertThat(qlogs).as("one qlog per connection").hasSize(1);
            return new QuicheQlog(Files.readString(qlogs.get(0), StandardCharsets.UTF_8));
        }
    }

    private static String began(String qlog) {
        Matcher header = WALL_CLOCK.matcher(qlog);
        assertThat(header.find()).as("a qlog header with its reference time").isTrue();
        return header.group(1); // ISO-8601 in UTC: its text sorts as its time
    }

    /**
     * The stream's bytes quiche sent in each round trip, from the first round that carried any of
     * them to the last. Each packet counts in the round after that of the oldest packet the ACKs
     * quiche took since its last send newly acknowledged (round 0 before any): the round whose ACKs
     * released it, even when the client acknowledges the end of one round with the start of the next.
     */
    List<Long> streamBytesPerRoundTrip(int streamId) {
        NavigableMap<Long, Integer> unacknowledged = new TreeMap<>(); // ack-eliciting packet number -> its round
        List<Long> rounds = new ArrayList<>();
        int round = 0;
        int released = Integer.MAX_VALUE; // the oldest round newly acknowledged since the last send
        for (String event : qlog.split("\u001e")) {
            Matcher packet = ONE_RTT.matcher(event);
            if (!packet.find()) {
                continue;
            }
            if (event.contains("\"name\":\"quic:packet_sent\"")) {
                if (released != Integer.MAX_VALUE) {
                    round = released + 1;
                    released = Integer.MAX_VALUE;
                }
                if (ACK_ELICITING.matcher(event).find()) {
                    unacknowledged.put(Long.parseLong(packet.group(1)), round);
                }
                while (rounds.size() <= round) {
                    rounds.add(0L);
                }
                rounds.set(round, rounds.get(round) + streamBytes(event, streamId));
            } else if (event.contains("\"name\":\"quic:packet_received\"")) {
                released = Math.min(released, oldestRoundAcknowledged(event, unacknowledged));
            }
        }
        int first = 0;
        while (first < rounds.size() && rounds.get(first) == 0) {
            first++;
        }
        int last = rounds.size();
        while (last > first && rounds.get(last - 1) == 0) {
            last--;
        }
        return rounds.subList(first, last);
    }

    /**
     * From the last packet quiche built with bytes of the stream to the first ACK of it (ms, quiche's
     * clock): a round trip, plus however long the listener held that packet after quiche built it.
     */
    double millisToAcknowledgeLastPacketOf(int streamId) {
        long last = -1;
        double builtAt = 0;
        double acknowledgedAt = -1;
        for (String event : qlog.split("\u001e")) {
            Matcher packet = ONE_RTT.matcher(event);
            Matcher time = TIME.matcher(event);
            if (!packet.find() || !time.find()) {
                continue;
            }
            if (event.contains("\"name\":\"quic:packet_sent\"") && streamBytes(event, streamId) > 0) {
                last = Long.parseLong(packet.group(1));
                builtAt = Double.parseDouble(time.group(1));
                acknowledgedAt = -1;
            } else if (event.contains("\"name\":\"quic:packet_received\"") && last >= 0 && acknowledgedAt < 0
                    && acknowledges(event, last)) {
                acknowledgedAt = Double.parseDouble(time.group(1));
            }
        }
        assertThat(acknowledgedAt).as("an ACK of stream %d's last packet in the server's qlog", streamId).isPositive();
        return acknowledgedAt - builtAt;
    }

    /** The 1-RTT packets quiche sent that carried STREAM frames of two streams or more. */
    int packetsWithSeveralStreams() {
        int packets = 0;
        for (String event : qlog.split("\u001e")) {
            if (event.contains("\"name\":\"quic:packet_sent\"") && ONE_RTT.matcher(event).find()) {
                Matcher frame = STREAM.matcher(event);
                long streams = frame.results().map(stream -> stream.group(1)).distinct().count();
                packets += streams > 1 ? 1 : 0;
            }
        }
        return packets;
    }

    /** The lowest {@code min_rtt} quiche logged (ms): every RTT sample it took was at least this. */
    double lowestMinRttMillis() {
        Matcher sample = MIN_RTT.matcher(qlog);
        double lowest = Double.MAX_VALUE;
        while (sample.find()) {
            lowest = Math.min(lowest, Double.parseDouble(sample.group(1)));
        }
        assertThat(lowest).as("a min_rtt in the server's qlog").isLessThan(Double.MAX_VALUE);
        return lowest;
    }

    /** The median of the RTT samples quiche took ({@code latest_rtt}, ms): the time from each packet built to its ACK. */
    double medianRttSampleMillis() {
        Matcher sample = LATEST_RTT.matcher(qlog);
        List<Double> samples = new ArrayList<>();
        while (sample.find()) {
            samples.add(Double.parseDouble(sample.group(1)));
        }
        assertThat(samples).as("RTT samples in the server's qlog").isNotEmpty();
        samples.sort(null);
        return samples.get(samples.size() / 2);
    }

    /**
     * The stream's packets in bursts as quiche's pacer counts them (quiche-pacing-builds-when-due.patch):
     * packets built less than {@code gapMillis} apart, a burst ending when another datagram of
     * {@code datagramBytes} would take it past {@code quantumBytes}. Each with its first and last packet's
     * send time (ms, quiche's clock, to the microsecond), its bytes (whole packets), the congestion
     * window and smoothed RTT quiche held at its last packet, the time since the packet before it
     * (infinite for the first), and whether quiche received a packet from the client in that time.
     */
    List<Burst> bursts(int streamId, double gapMillis, long quantumBytes, long datagramBytes) {
        List<Burst> bursts = new ArrayList<>();
        long window = -1;
        double smoothedRtt = -1;
        boolean received = false;
        for (String event : qlog.split("\u001e")) {
            received |= event.contains("\"name\":\"quic:packet_received\"");
            Matcher metrics = WINDOW.matcher(event);
            if (metrics.find()) {
                window = Long.parseLong(metrics.group(1));
            }
            Matcher rtt = SMOOTHED_RTT.matcher(event);
            if (event.contains("\"name\":\"quic:recovery_metrics_updated\"") && rtt.find()) {
                smoothedRtt = Double.parseDouble(rtt.group(1));
            }
            Matcher sentAt = SENT_AT.matcher(event);
            Matcher length = PACKET_LENGTH.matcher(event);
            if (!event.contains("\"name\":\"quic:packet_sent\"") || streamBytes(event, streamId) == 0 || !sentAt.find()
                    || !length.find()) {
                continue;
            }
            double at = Double.parseDouble(sentAt.group(1));
            long bytes = Long.parseLong(length.group(1));
            Burst last = bursts.isEmpty() ? null : bursts.get(bursts.size() - 1);
            if (last != null && at - last.lastAt() < gapMillis && last.bytes() + datagramBytes <= quantumBytes) {
                bursts.set(bursts.size() - 1, new Burst(last.firstAt(), at, last.bytes() + bytes, window, smoothedRtt, last.gapBefore(),
                        last.afterReceipt()));
            } else {
                bursts.add(new Burst(at, at, bytes, window, smoothedRtt, last == null ? Double.POSITIVE_INFINITY : at - last.lastAt(),
                        received));
            }
            received = false;
        }
        return bursts;
    }

    /** A run of packets sent back to back ({@link #bursts}); times in ms. */
    record Burst(double firstAt, double lastAt, long bytes, long window, double smoothedRttMillis, double gapBefore,
                 boolean afterReceipt) {
    }

    /** The congestion window quiche held (B) when it sent the first packet carrying bytes of the stream. */
    long congestionWindowAtStartOf(int streamId) {
        long window = -1;
        for (String event : qlog.split("\u001e")) {
            Matcher metrics = WINDOW.matcher(event);
            if (metrics.find()) {
                window = Long.parseLong(metrics.group(1));
            } else if (event.contains("\"name\":\"quic:packet_sent\"") && streamBytes(event, streamId) > 0) {
                assertThat(window).as("a congestion window logged before stream %d's first packet", streamId).isPositive();
                return window;
            }
        }
        throw new AssertionError("the server's qlog shows no packet of stream " + streamId);
    }

    /**
     * Each cut quiche made to its congestion window at a loss: the window before it, the cut one, and
     * the next window it logged (after the recovery the loss began, or at the next cut), or -1 if none.
     */
    List<WindowCut> windowCuts() {
        List<WindowCut> cuts = new ArrayList<>();
        long window = -1;
        boolean afterAck = false; // the last packet event was one received with an ACK frame
        for (String event : qlog.split("\u001e")) {
            if (event.contains("\"name\":\"quic:packet_received\"")) {
                afterAck = event.contains("\"frame_type\":\"ack\"");
            } else if (event.contains("\"name\":\"quic:packet_sent\"")) {
                afterAck = false;
            }
            Matcher metrics = WINDOW.matcher(event);
            if (!metrics.find()) {
                continue;
            }
            long now = Long.parseLong(metrics.group(1));
            int last = cuts.size() - 1;
            if (last >= 0 && cuts.get(last).next() < 0) {
                cuts.set(last, cuts.get(last).withNext(now));
            }
            if (NEW_LOSS.matcher(event).find() && now < window) {
                cuts.add(new WindowCut(window, now, -1, afterAck));
            }
            window = now;
        }
        return cuts;
    }

    /**
     * A cut at a loss: {@code next} back at {@code before} or above is the cut undone (quiche's rollback);
     * {@code byAck} when an ACK revealed the loss (the packet quiche logged last before the cut was one it
     * received with an ACK frame), not its loss timer.
     */
    record WindowCut(long before, long cut, long next, boolean byAck) {
        WindowCut withNext(long window) {
            return new WindowCut(before, cut, window, byAck);
        }

        boolean undone() {
            return next >= before;
        }
    }

    private static long streamBytes(String event, int streamId) {
        long bytes = 0;
        Matcher frame = STREAM.matcher(event);
        while (frame.find()) {
            if (Integer.parseInt(frame.group(1)) == streamId) {
                bytes += Long.parseLong(frame.group(2));
            }
        }
        return bytes;
    }

    private static boolean acknowledges(String event, long packetNumber) {
        return ackedRanges(event).stream().anyMatch(range -> range[0] <= packetNumber && packetNumber <= range[1]);
    }

    /** The packet numbers the received packet's ACK frames acknowledge, as ranges {from, to}. */
    private static List<long[]> ackedRanges(String event) {
        List<long[]> ranges = new ArrayList<>();
        Matcher ack = ACKED_RANGES.matcher(event);
        while (ack.find()) {
            Matcher range = RANGE.matcher(ack.group(1));
            while (range.find()) {
                long from = Long.parseLong(range.group(1));
                ranges.add(new long[] {from, range.group(2) == null ? from : Long.parseLong(range.group(2))});
            }
        }
        return ranges;
    }

    /** Removes the packets the received packet's ACK frames acknowledge; the oldest round among them, or MAX_VALUE. */
    private static int oldestRoundAcknowledged(String event, NavigableMap<Long, Integer> unacknowledged) {
        int oldest = Integer.MAX_VALUE;
        for (long[] range : ackedRanges(event)) {
            Map<Long, Integer> acknowledged = unacknowledged.subMap(range[0], true, range[1], true);
            for (int round : acknowledged.values()) {
                oldest = Math.min(oldest, round);
            }
            acknowledged.clear();
        }
        return oldest;
    }
}
