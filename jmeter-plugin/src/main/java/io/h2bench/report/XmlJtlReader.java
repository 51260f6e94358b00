package io.h2bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Streams a JMeter XML results file: each top-level sample, with its nested sub-results, is handed
 * over as a {@link PageSample} and then forgotten, so a JTL of any length fits in memory. Plain
 * StAX, no JMeter classes: the report runs with the plugin jar alone.
 */
public final class XmlJtlReader {

    /** The JMeter options that make an XML JTL the waterfall can draw. */
    public static final String XML_OPTIONS = "-Jjmeter.save.saveservice.output_format=xml"
            + " -Jjmeter.save.saveservice.subresults=true -Jjmeter.save.saveservice.responseHeaders=true";
    /**
     * The h2bench sampler's JMeter variables that carry TLS handshake times (io.h2bench.sampler.TlsColumns),
     * attributes of every sample element when JMeter ran with {@code sample_variables} naming them. JMeter
     * repeats a sample's variables on each of its sub-results, so a part's own time is in its parent's list.
     * No underscore in them: JMeter's XML writer (XStream) doubles it in an attribute's name.
     */
    public static final String TLS_VARIABLE = "h2benchTls";
    public static final String TLS_PARTS_VARIABLE = "h2benchTlsParts";
    private static final Set<String> SAMPLE_ELEMENTS = Set.of("httpSample", "sample");

    private final Path jtl;
    private final boolean stampsAtEnd;

    /**
     * @param stampsAtEnd true when JMeter ran with {@code sampleresult.timestamp.start=false}; JMeter
     *                    5.6.3's own jmeter.properties sets it true, so a {@code ts} is a start
     */
    public XmlJtlReader(Path jtl, boolean stampsAtEnd) {
        this.jtl = jtl;
        this.stampsAtEnd = stampsAtEnd;
    }

    /** What is done with each top-level sample; false stops the reading. */
    @FunctionalInterface
    public interface Handler {
        boolean next(PageSample sample) throws JtlFormatException, IOException;
    }

    /** Gives {@code each} every top-level sample in file order, until the end or until it returns false. */
    public void read(Handler each) throws JtlFormatException, IOException {
        try (InputStream in = open()) {
            XMLStreamReader xml = factory().createXMLStreamReader(in);
            try {
                readRoot(xml, each);
            } finally {
                xml.close();
            }
        } catch (XMLStreamException e) {
            int line = e.getLocation() == null ? -1 : e.getLocation().getLineNumber();
            throw new JtlFormatException(jtl + " line " + line + ": not well-formed XML (" + firstLine(e.getMessage())
                    + "); a JTL of a JMeter that was killed lacks its closing </testResults>", e);
        }
    }

    /** Fails early, with the options to set, on a CSV JTL (JMeter's default format). */
    private InputStream open() throws JtlFormatException {
        try {
            return openXml();
        } catch (NoSuchFileException e) {
            throw new JtlFormatException(jtl + ": no such file", e);
        } catch (IOException e) {
            throw new JtlFormatException(jtl + ": cannot be read (" + e + ")", e);
        }
    }

    private InputStream openXml() throws IOException, JtlFormatException {
        PushbackInputStream in = new PushbackInputStream(Files.newInputStream(jtl), 1);
        int first = in.read();
        while (first == ' ' || first == '\n' || first == '\r' || first == '\t' || first == 0xEF || first == 0xBB
                || first == 0xBF) {
            first = in.read(); // blanks and a UTF-8 byte order mark
        }
        if (first != '<') {
            in.close();
            throw new JtlFormatException(jtl + ": " + (first < 0 ? "is empty" : "is not an XML JTL (a CSV one?)")
                    + "; the waterfall needs JMeter's XML results with sub-results: run JMeter with " + XML_OPTIONS);
        }
        in.unread(first);
        return in;
    }

    private static XMLInputFactory factory() {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        // A results file has no DTD; refusing them keeps external entities out.
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        return factory;
    }

    private void readRoot(XMLStreamReader xml, Handler each) throws XMLStreamException, JtlFormatException, IOException {
        xml.nextTag();
        if (!xml.getLocalName().equals("testResults")) {
            throw new JtlFormatException(jtl + ": not a JMeter XML results file (its root is <" + xml.getLocalName()
                    + ">, not <testResults>)");
        }
        Deque<Builder> open = new ArrayDeque<>();
        while (xml.hasNext()) {
            int event = xml.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                startElement(xml, open);
            } else if (event == XMLStreamConstants.END_ELEMENT && SAMPLE_ELEMENTS.contains(xml.getLocalName())) {
                PageSample done = open.pop().build();
                if (open.isEmpty()) {
                    if (!each.next(done)) {
                        return;
                    }
                } else {
                    open.peek().parts.add(done);
                }
            }
        }
    }

    private void startElement(XMLStreamReader xml, Deque<Builder> open) throws XMLStreamException, JtlFormatException {
        String name = xml.getLocalName();
        if (SAMPLE_ELEMENTS.contains(name)) {
            Builder sample = sample(xml);
            if (open.isEmpty()) {
                sample.tls = number(xml, TLS_VARIABLE);
                sample.tlsParts = attribute(xml, TLS_PARTS_VARIABLE);
            }
            open.push(sample);
        } else if (!open.isEmpty() && name.equals("samplerData")) {
            open.peek().samplerData = xml.getElementText();
        } else if (!open.isEmpty() && name.equals("responseHeader")) {
            open.peek().responseHeaders = xml.getElementText();
        } else if (!open.isEmpty()) {
            skip(xml); // response data, assertion results, URL, cookies: not part of the picture
        }
    }

    private Builder sample(XMLStreamReader xml) throws JtlFormatException {
        Builder sample = new Builder();
        sample.label = attribute(xml, "lb");
        sample.elapsed = number(xml, "t");
        long stamp = number(xml, "ts");
        sample.start = stampsAtEnd ? stamp - sample.elapsed : stamp;
        sample.latency = number(xml, "lt");
        sample.connect = number(xml, "ct");
        sample.sentBytes = number(xml, "sby");
        sample.successful = Boolean.parseBoolean(attribute(xml, "s"));
        sample.responseCode = attribute(xml, "rc");
        return sample;
    }

    private static void skip(XMLStreamReader xml) throws XMLStreamException {
        int depth = 1;
        while (depth > 0) {
            int event = xml.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                depth++;
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                depth--;
            }
        }
    }

    private static String attribute(XMLStreamReader xml, String name) {
        String value = xml.getAttributeValue(null, name);
        return value == null ? "" : value;
    }

    /** A missing number is 0, as JMeter writes nothing for a field it was told not to save. */
    private long number(XMLStreamReader xml, String name) throws JtlFormatException {
        String value = attribute(xml, name);
        if (value.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new JtlFormatException(jtl + " line " + xml.getLocation().getLineNumber() + ": " + name + "=\""
                    + value + "\" is not a number" + (name.equals("ts")
                    ? "; save time stamps in ms (-Jjmeter.save.saveservice.timestamp_format=ms, JMeter's default)" : ""), e);
        }
    }

    /** The JDK's StAX message is "ParseError at [row,col]:[5,3]\nMessage: ..."; the line is reported apart. */
    private static String firstLine(String message) {
        String text = String.valueOf(message).strip();
        int at = text.lastIndexOf("Message: ");
        return at < 0 ? text.lines().findFirst().orElse(text) : text.substring(at + "Message: ".length());
    }

    /** A sample being read: its attributes come first, its children and sub-results after. */
    private static final class Builder {
        private String label;
        private long start;
        private long elapsed;
        private long latency;
        private long connect;
        private long tls;
        private String tlsParts = "";
        private long sentBytes;
        private boolean successful;
        private String responseCode;
        private String samplerData = "";
        private String responseHeaders = "";
        private final List<PageSample> parts = new ArrayList<>();

        PageSample build() {
            return new PageSample(label, start, elapsed, latency, connect, tls, sentBytes, successful, responseCode,
                    samplerData, responseHeaders, partsWithTls());
        }

        /** Each part's TLS handshake time from this sample's list; 0 where the list has none. */
        private List<PageSample> partsWithTls() {
            String[] times = tlsParts.isBlank() ? new String[0] : tlsParts.strip().split("\\s+");
            List<PageSample> timed = new ArrayList<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                timed.add(parts.get(i).withTlsMillis(i < times.length ? parseOrZero(times[i]) : 0));
            }
            return timed;
        }

        private static long parseOrZero(String text) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
    }
}
