package io.h2bench.server.h3;

import java.nio.file.Path;
import java.util.Locale;

import io.netty.handler.codec.quic.QuicCongestionControlAlgorithm;

/**
 * How the h3 listener's QUIC behaves where maintained servers differ: its congestion control and
 * initial window, whether it validates a client's address with a Retry first, and where it writes
 * each connection's qlog.
 *
 * @param congestionControl  {@code cubic} (quiche's and Linux TCP's default), {@code reno} or {@code bbr}
 * @param initialWindow      the initial congestion window in packets: 10 as TCP and quiche, 32 as quic-go
 * @param retry              answer a first Initial without a token with a Retry (one more round trip), as a
 *                           server under attack validates addresses; off by default, as maintained servers
 * @param qlogDirectory      where quiche writes one qlog per connection, or null
 */
public record QuicOptions(String congestionControl, int initialWindow, boolean retry, Path qlogDirectory) {

    public static final String DEFAULT_CONGESTION_CONTROL = "cubic";
    public static final int DEFAULT_INITIAL_WINDOW = 10;

    public QuicOptions {
        algorithm(congestionControl);
        if (initialWindow < 2 || initialWindow > 1000) {
            throw new IllegalArgumentException("--h3-initial-window must be 2..1000 packets, was " + initialWindow);
        }
    }

    public static QuicOptions defaults() {
        return new QuicOptions(DEFAULT_CONGESTION_CONTROL, DEFAULT_INITIAL_WINDOW, false, null);
    }

    public QuicOptions withCongestionControl(String name, int packets) {
        return new QuicOptions(name, packets, retry, qlogDirectory);
    }

    public QuicOptions withRetry(boolean on) {
        return new QuicOptions(congestionControl, initialWindow, on, qlogDirectory);
    }

    public QuicOptions withQlogDirectory(Path directory) {
        return new QuicOptions(congestionControl, initialWindow, retry, directory);
    }

    QuicCongestionControlAlgorithm algorithm() {
        return algorithm(congestionControl);
    }

    /** For the banner and the run's description: {@code cubic, initial window 10 packets, no Retry}. */
    public String describe() {
        return congestionControl + ", initial window " + initialWindow + " packets, " + (retry ? "Retry first" : "no Retry");
    }

    private static QuicCongestionControlAlgorithm algorithm(String name) {
        try {
            return QuicCongestionControlAlgorithm.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException unknown) {
            throw new IllegalArgumentException("--h3-congestion-control must be cubic, reno or bbr, was " + name);
        }
    }
}
