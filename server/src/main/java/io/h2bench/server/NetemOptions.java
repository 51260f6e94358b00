package io.h2bench.server;

import io.h2bench.server.netem.LinkProfile;
import io.h2bench.server.netem.LinkUnits;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The network emulation options, shared by the server and the {@code forward} command
 * ({@code @Mixin NetemOptions netem;}). A bad value fails parsing with one line naming the option.
 */
public final class NetemOptions {

    @Option(names = "--profile", paramLabel = "NAME", converter = PresetConverter.class,
            description = "Start from a preset: gprs, regular-2g, good-2g, regular-3g, good-3g, regular-4g, "
                    + "dsl, wifi (Chrome DevTools' numbers). The other options override its values.")
    private LinkProfile preset;

    @Option(names = "--latency", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Added round-trip time, half in each direction, e.g. 100ms or 0.2s (bare number: ms).")
    private Duration latency;

    @Option(names = "--bandwidth", paramLabel = "RATE", converter = BitRateConverter.class,
            description = "Bandwidth of each direction, shared by all connections of a listener, "
                    + "e.g. 1.6mbit, 750kbit or unlimited.")
    private Long bandwidth;

    @Option(names = "--bandwidth-down", paramLabel = "RATE", converter = BitRateConverter.class,
            description = "Server-to-client bandwidth; overrides --bandwidth.")
    private Long bandwidthDown;

    @Option(names = "--bandwidth-up", paramLabel = "RATE", converter = BitRateConverter.class,
            description = "Client-to-server bandwidth; overrides --bandwidth.")
    private Long bandwidthUp;

    @Option(names = "--loss", paramLabel = "PERCENT", converter = LossConverter.class,
            description = "Share of TCP segments lost and retransmitted, e.g. 1%% or 0.3%%.")
    private Double loss;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the loss draws, to repeat a run's losses (default: 1).")
    private Long seed;

    /** The link the options describe; {@link LinkProfile#isIdeal()} when none was given. */
    public LinkProfile profile() {
        LinkProfile profile = preset != null ? preset : LinkProfile.ideal();
        boolean overridden = latency != null || bandwidth != null || bandwidthDown != null
                || bandwidthUp != null || loss != null;
        if (overridden) {
            profile = profile.withName(preset != null ? preset.name() + ", modified" : "custom");
        }
        if (latency != null) {
            profile = profile.withRtt(latency);
        }
        long down = firstGiven(bandwidthDown, bandwidth, profile.downBitsPerSecond());
        long up = firstGiven(bandwidthUp, bandwidth, profile.upBitsPerSecond());
        profile = profile.withBandwidth(down, up);
        if (loss != null) {
            profile = profile.withLoss(loss);
        }
        return seed != null ? profile.withSeed(seed) : profile;
    }

    private static long firstGiven(Long specific, Long general, long otherwise) {
        if (specific != null) {
            return specific;
        }
        return general != null ? general : otherwise;
    }

    /** Turns LinkUnits' IllegalArgumentException into picocli's one-line "Invalid value" error. */
    private abstract static class Converter<T> implements ITypeConverter<T> {
        private final Function<String, T> parse;

        Converter(Function<String, T> parse) {
            this.parse = parse;
        }

        @Override
        public T convert(String value) {
            try {
                return parse.apply(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    public static final class DurationConverter extends Converter<Duration> {
        public DurationConverter() {
            super(LinkUnits::parseDuration);
        }
    }

    public static final class BitRateConverter extends Converter<Long> {
        public BitRateConverter() {
            super(LinkUnits::parseBitRate);
        }
    }

    public static final class LossConverter extends Converter<Double> {
        public LossConverter() {
            super(LinkUnits::parseLoss);
        }
    }

    public static final class PresetConverter extends Converter<LinkProfile> {
        public PresetConverter() {
            super(LinkProfile::preset);
        }
    }
}
