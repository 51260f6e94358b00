package io.h2bench.server.netem;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One direction of one proxied connection: reads what the source sends, puts it through the
 * emulated link (bandwidth, delay, loss) and writes it to the destination in order, no earlier
 * than it would have arrived. A lost segment holds back every byte behind it (head-of-line).
 */
final class Pipe {

    /** Bytes a direction may hold before it stops reading its source, like a TCP window. */
    static final int MAX_BUFFERED = 4 * 1024 * 1024;

    private static final long NO_WAKE = Long.MIN_VALUE;
    private static final int END = -1;
    private static final int RESET = -2;

    private final Emulation emulation;
    private final ProxiedConnection connection;
    private final Endpoint source;
    private final Endpoint destination;
    private final Link link;
    private final LossModel loss;
    private final long oneWayNanos;
    /**
     * The handshake the kernel did at once on loopback: on a real link the client can send only
     * once the SYN-ACK is back (one RTT), the server only once the final ACK has reached it
     * (one and a half RTT).
     */
    private final long usableFrom;
    private final boolean segmented;

    private final ArrayDeque<Segment> waiting = new ArrayDeque<>();
    private final ArrayDeque<Segment> inFlight = new ArrayDeque<>();
    private final List<Segment> awaitingRecovery = new ArrayList<>(2);
    private final ByteBuffer[] gather = new ByteBuffer[64];
    private long buffered;
    private boolean sourceEnded;
    private boolean finDelivered;
    private long wakeAt = NO_WAKE;
    /** Owned by {@link Link}: whether this pipe is in the link's turns. */
    boolean onLink;

    Pipe(Emulation emulation, ProxiedConnection connection, Endpoint source, Endpoint destination,
         boolean down, long acceptedAt) {
        this.emulation = emulation;
        this.connection = connection;
        this.source = source;
        this.destination = destination;
        this.link = down ? emulation.downLink() : emulation.upLink();
        this.loss = emulation.lossModel(connection.index(), down);
        this.oneWayNanos = emulation.oneWayNanos();
        this.usableFrom = acceptedAt + emulation.rttNanos() + (down ? emulation.oneWayNanos() : 0);
        this.segmented = link != null || loss != null;
    }

    boolean finDelivered() {
        return finDelivered;
    }

    /** The source has bytes (or its end) for us. */
    void onReadable() throws IOException {
        ByteBuffer scratch = emulation.readBuffer();
        while (buffered < MAX_BUFFERED && !sourceEnded) {
            scratch.clear();
            int n = readSource(scratch);
            if (n == 0) {
                break;
            }
            long now = System.nanoTime();
            if (n < 0) {
                sourceEnded = true;
                send(n == END ? Segment.fin() : Segment.reset(), now);
                break;
            }
            byte[] data = new byte[n];
            scratch.flip().get(data);
            int step = segmented ? Segment.MSS : n;
            for (int offset = 0; offset < n; offset += step) {
                send(Segment.of(data, offset, Math.min(step, n - offset)), now);
            }
        }
        source.reading(!sourceEnded && buffered < MAX_BUFFERED);
    }

    /** -1 at the end of the stream, {@link #RESET} if the source connection failed. */
    private int readSource(ByteBuffer scratch) {
        try {
            return source.channel().read(scratch);
        } catch (IOException e) {
            return RESET;
        }
    }

    /** The destination can take more bytes. */
    void onWritable() throws IOException {
        deliverDue();
    }

    Segment nextWaiting() {
        return waiting.poll();
    }

    boolean hasWaiting() {
        return !waiting.isEmpty();
    }

    /** The segment has left the link at {@code exitNanos}; it now travels for the one-way delay. */
    void depart(Segment segment, long exitNanos) {
        long arrival = Math.max(exitNanos - usableFrom, 0) + usableFrom + oneWayNanos;
        if (loss != null && segment.isData() && loss.nextIsLost()) {
            segment.arriveAt = loss.arrivalByTimeout(arrival);
            awaitingRecovery.add(segment);
            emulation.countSegment(true);
        } else {
            segment.arriveAt = arrival;
            recoverEarlierLosses(arrival);
            if (segment.isData()) {
                emulation.countSegment(false);
            }
        }
        inFlight.add(segment);
        try {
            deliverDue();
        } catch (IOException e) {
            connection.abort();
        }
    }

    /** Drops everything queued: the connection is gone. */
    void discard() {
        waiting.clear();
        inFlight.clear();
        awaitingRecovery.clear();
    }

    private void send(Segment segment, long now) {
        buffered += segment.length();
        if (link == null) {
            depart(segment, now);
        } else {
            waiting.add(segment);
            link.offer(this, now);
        }
    }

    private void recoverEarlierLosses(long laterArrival) {
        if (awaitingRecovery.isEmpty()) {
            return;
        }
        long retransmitted = loss.arrivalByFastRetransmit(laterArrival);
        for (Segment lost : awaitingRecovery) {
            lost.arriveAt = Math.min(lost.arriveAt, retransmitted);
        }
        awaitingRecovery.clear();
    }

    /** Writes every segment whose time has come, in order, until one is not due or the socket is full. */
    private void deliverDue() throws IOException {
        long now = System.nanoTime();
        boolean blocked = false;
        Segment head;
        while (!blocked && (head = inFlight.peek()) != null && !connection.isClosed()) {
            if (head.arriveAt - now > 0) {
                wakeAt(head.arriveAt);
                break;
            }
            if (!head.isData()) {
                deliverEnd(head);
                return;
            }
            blocked = !writeDueData(now);
        }
        if (!connection.isClosed()) {
            destination.writing(blocked);
            source.reading(!sourceEnded && buffered < MAX_BUFFERED);
        }
    }

    /** One gathering write of the due data segments at the head; false if the socket took less. */
    private boolean writeDueData(long now) throws IOException {
        int count = 0;
        for (Segment segment : inFlight) {
            if (count == gather.length || !segment.isData() || segment.arriveAt - now > 0) {
                break;
            }
            gather[count++] = segment.unwritten();
        }
        destination.channel().write(gather, 0, count);
        for (int i = 0; i < count; i++) {
            gather[i] = null;
            Segment segment = inFlight.peek();
            if (segment.unwritten().hasRemaining()) {
                return false;
            }
            inFlight.poll();
            buffered -= segment.length();
        }
        return true;
    }

    /** The FIN or reset behind the data has arrived. */
    private void deliverEnd(Segment end) {
        inFlight.poll();
        if (end.kind() == Segment.Kind.RESET) {
            connection.abort();
            return;
        }
        finDelivered = true;
        connection.finDelivered(destination);
    }

    private void wakeAt(long at) {
        if (wakeAt != NO_WAKE && wakeAt - at <= 0) {
            return;
        }
        wakeAt = at;
        emulation.loop().schedule(at, () -> {
            if (wakeAt == at) {
                wakeAt = NO_WAKE;
            }
            try {
                deliverDue();
            } catch (IOException e) {
                connection.abort();
            }
        });
    }
}
