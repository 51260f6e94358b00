package io.h2bench.client.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ProtocolMode;
import java.lang.ref.WeakReference;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** What a connection's bookkeeping keeps of the exchanges it carried. */
class WireConnectionTest {

    private static final URI OBJECT = URI.create("http://127.0.0.1:1/object");

    @Test
    void shouldGiveTheConnectionToTheFirstExchangeOnlyWhenItWasOpenedForIt() {
        WireConnection wire = new WireConnection(1, System.nanoTime(), System.nanoTime());

        assertThat(wire.begin(recorder(), true, true)).as("the exchange it was opened for").isTrue();
        assertThat(wire.begin(recorder(), true, true)).as("a later exchange").isFalse();
    }

    /**
     * A recorder holds its response body: a connection that kept the one it was opened for held one
     * body per connection for its whole life (400 users, 44 kB: 17 MB that every collection kept).
     */
    @Test
    void shouldLetGoOfTheExchangeItWasOpenedForWhenThatEnds() throws InterruptedException {
        WireConnection wire = new WireConnection(1, System.nanoTime(), System.nanoTime());
        WeakReference<ExchangeRecorder> first = beginAndEnd(wire);
        for (int i = 0; i < 50 && first.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }

        assertThat(first.get()).as("the exchange the connection was opened for, after it ended").isNull();
        assertThat(wire.begin(recorder(), true, true)).as("a later exchange").isFalse();
    }

    private static WeakReference<ExchangeRecorder> beginAndEnd(WireConnection wire) {
        ExchangeRecorder first = recorder();
        wire.begin(first, true, true);
        wire.end(first);
        return new WeakReference<>(first);
    }

    private static ExchangeRecorder recorder() {
        return new ExchangeRecorder(ExchangeRequest.get(OBJECT, ProtocolMode.HTTP_1_1), OBJECT, false);
    }
}
