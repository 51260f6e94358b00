package io.h2bench.report;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads a JMeter CSV results file with its header line (JMeter 5.6.3's default output), whatever
 * subset and order of columns it was saved with. Only label, elapsed and success are required.
 */
public final class JtlReader {

    private static final List<String> REQUIRED = List.of("label", "elapsed", "success");

    /**
     * The sample variable bin/compare saves in every row (JMeter's {@code sample_variables}): the
     * server banner's network and QUIC settings, so a JTL taken elsewhere still says what it measured.
     */
    public static final String NETWORK_VARIABLE = "h2benchNetwork";

    private JtlReader() {
    }

    public static List<Sample> read(Path jtl) throws JtlFormatException {
        CSVFormat format = formatOf(jtl);
        try (Reader in = Files.newBufferedReader(jtl, StandardCharsets.UTF_8);
             CSVParser parser = CSVParser.parse(in, format)) {
            checkHeader(jtl, parser.getHeaderMap());
            List<Sample> samples = new ArrayList<>();
            for (CSVRecord row : parser) {
                samples.add(toSample(jtl, row));
            }
            if (samples.isEmpty()) {
                throw new JtlFormatException(jtl + ": has a header line but no samples");
            }
            return samples;
        } catch (IOException | IllegalStateException | IllegalArgumentException e) {
            throw unreadable(jtl, e);
        }
    }

    /** The network the first sample recorded in {@link #NETWORK_VARIABLE}; empty when the JTL has none. */
    public static String recordedNetwork(Path jtl) throws JtlFormatException {
        CSVFormat format = formatOf(jtl);
        try (Reader in = Files.newBufferedReader(jtl, StandardCharsets.UTF_8);
             CSVParser parser = CSVParser.parse(in, format)) {
            var rows = parser.iterator();
            return rows.hasNext() ? text(rows.next(), NETWORK_VARIABLE) : "";
        } catch (IOException | IllegalStateException | IllegalArgumentException e) {
            throw unreadable(jtl, e);
        }
    }

    /** {@code e}: what commons-csv threw (malformed quoting is an IllegalStateException or UncheckedIOException). */
    private static JtlFormatException unreadable(Path jtl, Exception e) {
        return new JtlFormatException(jtl + ": not a readable CSV results file (" + e.getMessage() + ")", e);
    }

    /** A CSV JTL with its header line, in the delimiter its first line uses. */
    private static CSVFormat formatOf(Path jtl) throws JtlFormatException {
        return CSVFormat.DEFAULT.builder()
                .setDelimiter(delimiterOf(jtl, firstLine(jtl)))
                .setHeader()
                .setSkipHeaderRecord(true)
                .build();
    }

    private static String firstLine(Path jtl) throws JtlFormatException {
        try (var lines = Files.lines(jtl, StandardCharsets.UTF_8)) {
            return lines.findFirst()
                    .orElseThrow(() -> new JtlFormatException(jtl + ": is empty"));
        } catch (NoSuchFileException e) {
            throw new JtlFormatException(jtl + ": no such file", e);
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new JtlFormatException(jtl + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /** JMeter's default delimiter is a comma; a tab is its documented alternative. */
    private static char delimiterOf(Path jtl, String firstLine) throws JtlFormatException {
        if (firstLine.startsWith("<?xml") || firstLine.startsWith("<testResults")) {
            throw new JtlFormatException(jtl + ": is an XML JTL; save results as CSV"
                    + " (jmeter.save.saveservice.output_format=csv, JMeter's default)");
        }
        if (firstLine.contains("label") && firstLine.contains("\t") && !firstLine.contains(",")) {
            return '\t';
        }
        return ',';
    }

    private static void checkHeader(Path jtl, Map<String, Integer> header) throws JtlFormatException {
        if (header == null || header.isEmpty()) {
            throw new JtlFormatException(jtl + ": has no header line");
        }
        for (String column : REQUIRED) {
            if (!header.containsKey(column)) {
                throw new JtlFormatException(jtl + ": no '" + column + "' column in the header line;"
                        + " expected a JMeter CSV results file saved with its header"
                        + " (jmeter.save.saveservice.print_field_names=true, JMeter's default)");
            }
        }
    }

    private static Sample toSample(Path jtl, CSVRecord row) throws JtlFormatException {
        return new Sample(
                number(jtl, row, "timeStamp"),
                required(jtl, row, "elapsed"),
                text(row, "label"),
                text(row, "responseCode"),
                text(row, "responseMessage"),
                text(row, "threadName"),
                Boolean.parseBoolean(text(row, "success")),
                text(row, "failureMessage"),
                number(jtl, row, "bytes"),
                number(jtl, row, "sentBytes"),
                number(jtl, row, "Latency"),
                number(jtl, row, "Connect"));
    }

    private static String text(CSVRecord row, String column) {
        return row.isMapped(column) && row.isSet(column) ? row.get(column) : "";
    }

    private static long required(Path jtl, CSVRecord row, String column) throws JtlFormatException {
        long value = number(jtl, row, column);
        if (value < 0) {
            throw new JtlFormatException(jtl + " line " + row.getParser().getCurrentLineNumber()
                    + ": no " + column + " value");
        }
        return value;
    }

    private static long number(Path jtl, CSVRecord row, String column) throws JtlFormatException {
        String value = text(row, column).trim();
        if (value.isEmpty()) {
            return -1;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            // JMeter may save timeStamp as a formatted date (jmeter.save.saveservice.timestamp_format)
            if (column.equals("timeStamp")) {
                return -1;
            }
            throw new JtlFormatException(jtl + " line " + row.getParser().getCurrentLineNumber()
                    + ": " + column + " '" + value + "' is not a number", e);
        }
    }
}
