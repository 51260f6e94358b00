package io.h2bench.server.netem.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One direction of the link: a reader thread blocks on one TUN device (never polls), runs each
 * packet through the {@link PacketLoss} and the {@link LinkShaper} and hands it to a writer thread, which sleeps until the
 * packet is due and writes it to the other device. Both threads ask for real-time priority.
 */
final class Relay {

    private static final int RING_PACKETS = 8192;
    /** parkNanos wakes up to ~50 µs late (timer slack); the last stretch is spun. */
    private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final String name;
    private final Tun from;
    private final Tun to;
    private final PacketLoss loss;
    private final LinkShaper shaper;
    private final PacketRing ring = new PacketRing(RING_PACKETS);
    /** Where a packet goes when the ring is full: it is read, then dropped. */
    private final Pointer overflow = new Memory(PacketRing.SLOT_BYTES);
    private final AtomicLong relayed = new AtomicLong();
    private final AtomicLong ringDrops = new AtomicLong();
    private final AtomicLong writeErrors = new AtomicLong();
    private final Thread reader;
    private final Thread writer;
    private volatile boolean writerParked;
    private volatile boolean stopped;
    private volatile String priorityProblem;
    /** Counts down when each thread has asked for its priority, so the banner knows the answer. */
    private final CountDownLatch prioritised = new CountDownLatch(2);

    Relay(String name, Tun from, Tun to, PacketLoss loss, LinkShaper shaper) {
        this.name = name;
        this.from = from;
        this.to = to;
        this.loss = loss;
        this.shaper = shaper;
        this.reader = new Thread(this::readLoop, "h2bench-link-" + name + "-in");
        this.writer = new Thread(this::writeLoop, "h2bench-link-" + name + "-out");
        reader.setDaemon(true);
        writer.setDaemon(true);
    }

    void start() throws InterruptedException {
        writer.start();
        reader.start();
        prioritised.await(5, TimeUnit.SECONDS);
    }

    /** Stops the writer; the reader ends at its next packet (see {@link KernelLink#close()}). */
    void stop() {
        stopped = true;
        LockSupport.unpark(writer);
    }

    /** Waits for both threads to end; false if the reader still blocks on its device. */
    boolean join(long millis) throws InterruptedException {
        writer.join(millis);
        reader.join(millis);
        return !reader.isAlive() && !writer.isAlive();
    }

    LinkCounters.Direction counters() {
        return new LinkCounters.Direction(relayed.get(), loss.lostPackets(),
                shaper.queueDrops() + ringDrops.get(), writeErrors.get());
    }

    /** Null when both threads run at real-time priority, else why not. */
    String priorityProblem() {
        return priorityProblem;
    }

    private void readLoop() {
        raisePriority();
        while (!stopped) {
            Pointer slot = ring.freeSlot();
            if (slot == null) {
                slot = overflow;
            }
            int length;
            try {
                length = from.read(slot, PacketRing.SLOT_BYTES);
            } catch (LastErrorException e) {
                if (stopped || from.isClosed()) {
                    return;
                }
                continue;
            }
            if (stopped) {
                return;
            }
            admit(slot, length);
        }
    }

    private void admit(Pointer slot, int length) {
        if (loss.drops(slot, length)) {
            return;
        }
        long due = shaper.admit(length, System.nanoTime());
        if (due == LinkShaper.DROPPED) {
            return;
        }
        if (ring.freeSlot() != slot) {
            ringDrops.incrementAndGet();
            return;
        }
        ring.publish(length, due);
        if (writerParked) {
            LockSupport.unpark(writer);
        }
    }

    private void writeLoop() {
        raisePriority();
        while (!stopped) {
            if (ring.isEmpty()) {
                waitForPacket();
                continue;
            }
            waitUntil(ring.oldestDue());
            if (stopped) {
                return;
            }
            try {
                to.write(ring.oldestSlot(), ring.oldestLength());
                relayed.incrementAndGet();
            } catch (LastErrorException e) {
                writeErrors.incrementAndGet();
            }
            ring.release();
        }
    }

    private void waitForPacket() {
        writerParked = true;
        if (ring.isEmpty() && !stopped) {
            LockSupport.park(this);
        }
        writerParked = false;
    }

    private void waitUntil(long due) {
        long left;
        while ((left = due - System.nanoTime()) > SPIN_NANOS && !stopped) {
            LockSupport.parkNanos(this, left - SPIN_NANOS);
        }
        while (due - System.nanoTime() > 0 && !stopped) {
            Thread.onSpinWait();
        }
    }

    private void raisePriority() {
        try {
            LibC.sched_setscheduler(0, LibC.SCHED_FIFO, new int[] {10});
        } catch (LastErrorException e) {
            priorityProblem = "no real-time priority for the relay (" + LibC.describe(e) + ")";
        } finally {
            prioritised.countDown();
        }
    }

    @Override
    public String toString() {
        return "relay " + name + ": " + counters();
    }
}
