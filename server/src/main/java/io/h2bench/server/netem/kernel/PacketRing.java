package io.h2bench.server.netem.kernel;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Packets between one reader and one writer thread, each with the time it is due at the far end.
 * Every slot's native memory is allocated once, so relaying a packet allocates nothing and the
 * garbage collector never adds jitter to the link.
 */
final class PacketRing {

    /** A 1500-byte MTU packet fits with room to spare; a TUN without offloads never gives more. */
    static final int SLOT_BYTES = 2048;

    private final Pointer[] slots;
    private final int[] lengths;
    private final long[] due;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong taken = new AtomicLong();
    private final Memory memory;

    PacketRing(int capacity) {
        memory = new Memory((long) capacity * SLOT_BYTES);
        slots = new Pointer[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = memory.share((long) i * SLOT_BYTES, SLOT_BYTES);
        }
        lengths = new int[capacity];
        due = new long[capacity];
    }

    /** The slot the producer fills next, or null when the ring is full. */
    Pointer freeSlot() {
        long next = written.get();
        return next - taken.get() < slots.length ? slots[index(next)] : null;
    }

    /** Publishes the slot {@link #freeSlot()} returned. */
    void publish(int length, long dueNanos) {
        long next = written.get();
        lengths[index(next)] = length;
        due[index(next)] = dueNanos;
        written.lazySet(next + 1);
    }

    boolean isEmpty() {
        return taken.get() == written.get();
    }

    /** Oldest packet's due time; only when not empty. */
    long oldestDue() {
        return due[index(taken.get())];
    }

    Pointer oldestSlot() {
        return slots[index(taken.get())];
    }

    int oldestLength() {
        return lengths[index(taken.get())];
    }

    void release() {
        taken.lazySet(taken.get() + 1);
    }

    private int index(long sequence) {
        return (int) (sequence % slots.length);
    }
}
