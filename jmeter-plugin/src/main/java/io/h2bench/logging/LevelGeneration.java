package io.h2bench.logging;

/**
 * Counts Log4j's configuration changes; a logger whose cached levels are from an older count asks
 * again. Without Log4j's core (no change events to listen to) nothing is cached.
 */
final class LevelGeneration {

    static final int NEVER = -1;

    private volatile int current;

    int current() {
        return current;
    }

    void advance() {
        if (current != NEVER) {
            current++;
        }
    }

    void neverCache() {
        current = NEVER;
    }
}
