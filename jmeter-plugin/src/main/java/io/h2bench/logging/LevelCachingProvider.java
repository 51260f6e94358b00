package io.h2bench.logging;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider of the plugin's (relocated) SLF4J: one {@link LevelCachingLogger} per name
 * over JMeter's Log4j. When Log4j's configuration changes (JMeter's log level menu, a reloaded
 * log4j2.xml), every logger asks Log4j again at its next question.
 */
public final class LevelCachingProvider implements SLF4JServiceProvider, ILoggerFactory {

    private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();
    private final LevelGeneration generation = new LevelGeneration();

    @Override
    public void initialize() {
        if (LogManager.getContext(false) instanceof LoggerContext context) {
            context.addPropertyChangeListener(change -> generation.advance());
        } else {
            generation.neverCache();
        }
    }

    @Override
    public Logger getLogger(String name) {
        return loggers.computeIfAbsent(name, n -> new LevelCachingLogger(LogManager.getLogger(n), generation));
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return this;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }
}
