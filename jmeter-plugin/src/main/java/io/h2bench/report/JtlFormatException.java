package io.h2bench.report;

/** A results file that is missing or that is not a CSV JTL as JMeter writes it; the message is for users. */
public final class JtlFormatException extends Exception {
    public JtlFormatException(String message) {
        super(message);
    }

    public JtlFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
