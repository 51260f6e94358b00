package io.h2bench.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The plugin's SLF4J over Log4j: the provider is the one SLF4J finds, and cached levels follow Log4j's changes. */
class LevelCachingProviderTest {

    private static final String NAME = "io.h2bench.test.LevelCaching";

    private final List<String> written = new ArrayList<>();
    private final AbstractAppender appender = new AbstractAppender("levelCachingTest", null, null, true, Property.EMPTY_ARRAY) {
        @Override
        public void append(LogEvent event) {
            written.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
        }
    };

    @AfterEach
    void removeAppender() {
        ((org.apache.logging.log4j.core.Logger) org.apache.logging.log4j.LogManager.getLogger(NAME)).removeAppender(appender);
        Configurator.setLevel(NAME, Level.INFO);
    }

    @Test
    void shouldBeTheLoggerSlf4jHandsOut() {
        assertThat(LoggerFactory.getLogger(NAME)).isInstanceOf(LevelCachingLogger.class);
    }

    @Test
    void shouldFollowALevelChangedAfterTheLevelsWereCached() {
        Logger logger = LoggerFactory.getLogger(NAME);
        Configurator.setLevel(NAME, Level.INFO);
        assertThat(logger.isDebugEnabled()).isFalse();

        Configurator.setLevel(NAME, Level.DEBUG);
        assertThat(logger.isDebugEnabled()).isTrue();

        Configurator.setLevel(NAME, Level.WARN);
        assertThat(logger.isDebugEnabled()).isFalse();
        assertThat(logger.isInfoEnabled()).isFalse();
        assertThat(logger.isWarnEnabled()).isTrue();
    }

    @Test
    void shouldWriteTheFormattedMessageAtItsLevelToLog4j() {
        appender.start();
        ((org.apache.logging.log4j.core.Logger) org.apache.logging.log4j.LogManager.getLogger(NAME)).addAppender(appender);
        Configurator.setLevel(NAME, Level.INFO);
        Logger logger = LoggerFactory.getLogger(NAME);

        logger.debug("not {}", "written");
        logger.warn("{} of {} connections refused", 3, 10);

        assertThat(written).containsExactly("WARN 3 of 10 connections refused");
    }
}
