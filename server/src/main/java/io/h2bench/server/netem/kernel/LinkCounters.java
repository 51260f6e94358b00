package io.h2bench.server.netem.kernel;

/**
 * What the link did since it started.
 *
 * @param up            client to server
 * @param down          server to client
 * @param hostTxDropped packets the host's kernel could not hand to the relay (TUN tx_dropped)
 * @param serverTxDropped the same on the server's side
 */
public record LinkCounters(Direction up, Direction down, long hostTxDropped, long serverTxDropped) {

    /**
     * @param relayed     packets written to the far device
     * @param lost        packets dropped by the loss (random or per connection, see LossPattern)
     * @param queueDrops  packets dropped because the queue was full
     * @param writeErrors packets the far device refused
     */
    public record Direction(long relayed, long lost, long queueDrops, long writeErrors) {
        @Override
        public String toString() {
            return relayed + " packets relayed, " + lost + " lost, " + queueDrops + " dropped by the queue"
                    + (writeErrors > 0 ? ", " + writeErrors + " write errors" : "");
        }
    }

    /** Two lines for the console. */
    public String describe() {
        return "link up (client to server): " + up + "\n"
                + "link down (server to client): " + down
                + (hostTxDropped + serverTxDropped > 0
                        ? "\nTUN tx_dropped: host " + hostTxDropped + ", server " + serverTxDropped : "");
    }
}
