package io.h2bench.sampler;

import io.h2bench.client.exchange.ExchangeResult;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * Which of the client's engines sent a sample ({@link ExchangeResult#engine()}: {@code h1-own},
 * {@code h2-own}, {@code h1-own>h2-own} (an accepted h2c Upgrade: one wrote the request, the other
 * read the response), {@code h3-netty}): a line of the
 * sampler data, for every sample and sub-result, and a JMeter variable that a JTL keeps as a column
 * (CSV) or attribute (XML) when the property {@code sample_variables} names it, as {@link TlsColumns}.
 */
public final class EngineColumn {

    /** The engine of the sample's own exchange (the last one, after redirects); empty when none was sent. */
    public static final String VARIABLE = "h2benchEngine";

    private EngineColumn() {
    }

    /** The engine's name, "none" when the exchange never reached one. */
    static String name(ExchangeResult exchange) {
        return exchange.engine() == null ? "none" : exchange.engine();
    }

    /** The sampler data's line, after "TLS handshake:". */
    static String samplerDataLine(ExchangeResult exchange) {
        return "Engine: " + name(exchange) + "\n";
    }

    /** Sets the variable before JMeter hands the sample to its listeners. */
    static void publish(String engine, JMeterVariables variables) {
        if (variables != null) {
            variables.put(VARIABLE, engine);
        }
    }
}
