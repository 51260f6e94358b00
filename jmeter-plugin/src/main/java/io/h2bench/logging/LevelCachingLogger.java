package io.h2bench.logging;

import org.apache.logging.log4j.Level;
import org.slf4j.Marker;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * An SLF4J logger that writes to one Log4j logger and remembers which levels are enabled until
 * {@link LevelGeneration} moves on: the question Jetty asks per request costs two volatile reads.
 */
final class LevelCachingLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    private final transient org.apache.logging.log4j.Logger log4j;
    private final transient LevelGeneration generation;
    /** The generation the flags below were read at; {@link LevelGeneration#NEVER} - 1 before the first read. */
    private volatile int readAt = LevelGeneration.NEVER - 1;
    private volatile boolean trace;
    private volatile boolean debug;
    private volatile boolean info;
    private volatile boolean warn;
    private volatile boolean error;

    LevelCachingLogger(org.apache.logging.log4j.Logger log4j, LevelGeneration generation) {
        this.log4j = log4j;
        this.generation = generation;
        this.name = log4j.getName();
    }

    @Override
    public boolean isTraceEnabled() {
        return fresh() ? trace : log4j.isTraceEnabled();
    }

    @Override
    public boolean isDebugEnabled() {
        return fresh() ? debug : log4j.isDebugEnabled();
    }

    @Override
    public boolean isInfoEnabled() {
        return fresh() ? info : log4j.isInfoEnabled();
    }

    @Override
    public boolean isWarnEnabled() {
        return fresh() ? warn : log4j.isWarnEnabled();
    }

    @Override
    public boolean isErrorEnabled() {
        return fresh() ? error : log4j.isErrorEnabled();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(org.slf4j.event.Level level, Marker marker, String pattern,
                                               Object[] arguments, Throwable thrown) {
        String message = MessageFormatter.basicArrayFormat(pattern, arguments);
        log4j.log(toLog4j(level), message, thrown);
    }

    /** True when the cached flags hold for the current configuration (read now if they did not). */
    private boolean fresh() {
        int now = generation.current();
        if (now == LevelGeneration.NEVER) {
            return false;
        }
        if (readAt != now) {
            trace = log4j.isTraceEnabled();
            debug = log4j.isDebugEnabled();
            info = log4j.isInfoEnabled();
            warn = log4j.isWarnEnabled();
            error = log4j.isErrorEnabled();
            readAt = now;
        }
        return true;
    }

    private static Level toLog4j(org.slf4j.event.Level level) {
        return switch (level) {
            case TRACE -> Level.TRACE;
            case DEBUG -> Level.DEBUG;
            case INFO -> Level.INFO;
            case WARN -> Level.WARN;
            case ERROR -> Level.ERROR;
        };
    }
}
