package io.h2bench.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** What a connection's bookkeeping keeps of the exchanges it carried. */
class WireConnectionTest {

    private static final URI URI_OF_TEST = URI.create("http://127.0.0.1:1/object");

    @Test
    void theExchangeAConnectionWasOpenedForIsItsOwnAndNoOneElses() {
        WireConnection wire = new WireConnection(1, null, System.nanoTime(), System.nanoTime());
        assertTrue(wire.begin(recorder(), true, true), "the first exchange claims the connection");
        assertFalse(wire.begin(recorder(), true, true), "a second exchange does not");
    }

    /**
     * A recorder holds its response body: a connection that kept the one it was opened for held one
     * body per connection for its whole life (400 users, 44 kB: 17 MB that every collection kept).
     */
    @Test
    void letsGoOfTheExchangeItWasOpenedForOnceThatEnds() throws InterruptedException {
        WireConnection wire = new WireConnection(1, null, System.nanoTime(), System.nanoTime());
        WeakReference<ExchangeRecorder> first = beginAndEnd(wire);
        for (int i = 0; i < 50 && first.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(first.get(), "the connection still holds the exchange it was opened for");
        assertFalse(wire.begin(recorder(), true, true), "the connection stays claimed by the exchange that ended");
    }

    private static WeakReference<ExchangeRecorder> beginAndEnd(WireConnection wire) {
        ExchangeRecorder first = recorder();
        wire.begin(first, true, true);
        wire.end(first);
        return new WeakReference<>(first);
    }

    private static ExchangeRecorder recorder() {
        return new ExchangeRecorder(ExchangeRequest.get(URI_OF_TEST, ProtocolMode.HTTP_1_1), URI_OF_TEST, false, null);
    }
}
