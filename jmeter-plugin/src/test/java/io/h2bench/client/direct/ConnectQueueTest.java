package io.h2bench.client.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ProtocolMode;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** How many connects the HTTP/1.1 pool starts for the requests waiting for a connection. */
class ConnectQueueTest {

    private static final URI TARGET = URI.create("https://127.0.0.1:1/small-text.txt");
    private static final int MAX = 6;

    /**
     * A connection that ends (Connection: close) is seen closed after its response is read, when the
     * user's next request already waits for the connect started for it: no second connect starts for
     * it (seen as a fourth tunnel through squid for three samples, where HttpClient4 opens three).
     */
    @Test
    void shouldStartNoSecondConnectWhenAConnectionClosesWhileTheWaitingRequestsConnectIsUnderWay() {
        ConnectQueue<Waiter> queue = new ConnectQueue<>();
        Waiter next = new Waiter();

        assertThat(queue.add(next, 1, MAX)).as("a connect for the next request").isTrue();

        assertThat(queue.reconnect(0, false)).as("another connect for it once the old connection closed").isNull();
    }

    @Test
    void shouldStartOneConnectPerWaitingRequestWhenConnectionsCloseUnderThem() {
        ConnectQueue<Waiter> queue = new ConnectQueue<>();
        queue.add(new Waiter(), MAX, MAX); // every connection busy: both wait, no connect
        queue.add(new Waiter(), MAX, MAX);

        assertThat(queue.reconnect(MAX - 1, false)).as("a connect for the first").isNotNull();
        assertThat(queue.reconnect(MAX - 2, false)).as("a connect for the second").isNotNull();
        assertThat(queue.reconnect(MAX - 3, false)).as("a third, for nobody").isNull();
    }

    private static final class Waiter extends DirectExchange {

        Waiter() {
            this(ExchangeRequest.get(TARGET, ProtocolMode.HTTP_1_1));
        }

        private Waiter(ExchangeRequest request) {
            super(request, new ExchangeRecorder(request, TARGET, false));
        }

        @Override
        protected void abortHere(Throwable failure) {
        }

        @Override
        protected void requestWritten() {
        }

        @Override
        public boolean finished() {
            return false;
        }

        @Override
        public void fail(Throwable failure) {
        }
    }
}
