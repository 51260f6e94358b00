package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.junit.jupiter.api.Test;

/**
 * The refusal log's lines, with the interval's end in the test's hands (a scheduler that runs what
 * is due only when told): the first refusal at once, the rest of an interval summed up in one line
 * when it ends, per cap and address, and nothing at the end of a quiet interval.
 */
class RefusalLogTest {

    private static final String PER_CLIENT = "--max-connections-per-client 50";
    private static final String PER_LISTENER = "--max-connections 4096";

    private final List<String> lines = new ArrayList<>();
    private final IntervalEnds intervals = new IntervalEnds();
    private final RefusalLog log = new RefusalLog("h2", intervals, lines::add);

    @Test
    void shouldTellTheFirstRefusalAtOnceAndSumTheRestWhenTheIntervalEnds() throws Exception {
        refuse("127.0.0.2", PER_CLIENT, 50);
        refuse("127.0.0.3", PER_LISTENER, 3);

        assertThat(lines).containsExactly("h2: refused a connection from 127.0.0.2 (" + PER_CLIENT + " reached); "
                + "further refusals are summed up every 10 s");
        assertThat(intervals.pending()).isEqualTo(1);

        intervals.end();

        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).isEqualTo("h2: refused 52 more connections in 10 s: {"
                + PER_LISTENER + " from 127.0.0.3=3, " + PER_CLIENT + " from 127.0.0.2=49}");
        assertThat(log.refused()).isEqualTo(53);
        assertThat(log.lines()).isEqualTo(2);
    }

    @Test
    void shouldSumEachIntervalOnItsOwnWhileRefusalsGoOn() throws Exception {
        refuse("127.0.0.2", PER_CLIENT, 5);
        intervals.end();
        refuse("127.0.0.2", PER_CLIENT, 7);
        intervals.end();

        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).isEqualTo("h2: refused 4 more connections in 10 s: {" + PER_CLIENT + " from 127.0.0.2=4}");
        assertThat(lines.get(2)).isEqualTo("h2: refused 7 more connections in 10 s: {" + PER_CLIENT + " from 127.0.0.2=7}");
    }

    @Test
    void shouldWriteNothingAtTheEndOfAQuietIntervalAndTellTheNextRefusalAtOnce() throws Exception {
        refuse("127.0.0.2", PER_CLIENT, 1);
        intervals.end();

        assertThat(lines).hasSize(1);
        assertThat(intervals.pending()).as("intervals running after a quiet one").isZero();

        refuse("127.0.0.3", PER_CLIENT, 1);

        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).startsWith("h2: refused a connection from 127.0.0.3 ");
        assertThat(intervals.pending()).isEqualTo(1);
    }

    @Test
    void shouldSumAddressesBeyondTheEighthOnOneEntry() throws Exception {
        refuse("127.0.0.1", PER_CLIENT, 1); // the line at once
        for (int host = 2; host <= 13; host++) {
            refuse("127.0.0." + host, PER_CLIENT, 2);
        }
        intervals.end();

        assertThat(lines.get(1)).startsWith("h2: refused 24 more connections in 10 s: {")
                .contains(PER_CLIENT + " from 127.0.0.9=2, ")
                .endsWith(PER_CLIENT + " from other addresses=8}")
                .doesNotContain("127.0.0.10");
    }

    private void refuse(String client, String cap, int times) throws UnknownHostException {
        InetAddress address = InetAddress.getByName(client);
        for (int i = 0; i < times; i++) {
            log.refused(address, cap);
        }
    }

    /** Jetty's scheduler, except that what is scheduled runs when the test ends an interval, not on a timer. */
    private static final class IntervalEnds extends ScheduledExecutorScheduler {

        private final List<Runnable> due = new ArrayList<>();

        @Override
        public Task schedule(Runnable task, long delay, TimeUnit unit) {
            assertThat(unit.toSeconds(delay)).as("the interval").isEqualTo(10);
            due.add(task);
            return () -> due.remove(task);
        }

        int pending() {
            return due.size();
        }

        /** Ends the interval under way: runs what was scheduled for its end (which may schedule the next). */
        void end() {
            List<Runnable> ending = new ArrayList<>(due);
            due.clear();
            ending.forEach(Runnable::run);
        }
    }
}
