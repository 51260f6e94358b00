package io.h2bench.convert;

import io.h2bench.client.exchange.ProtocolMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Rewrites a JMeter plan's HTTP Requests (recorded by the Test Script Recorder or written by hand)
 * into h2bench samplers, keeping every field: only the element name and its gui/test classes change,
 * so the URL, parameters, body, files, redirects, timeouts, embedded-resource settings and the
 * managers around them stay as they were. No HTTP version is written unless asked for, so the
 * sampler speaks HTTP/1.1 to http:// and HTTP/2 (ALPN) to https://; {@code --version H2C} (or any
 * {@link ProtocolMode}) sets one for every converted sampler.
 *
 * <pre>java -cp h2bench-jmeter-plugin.jar io.h2bench.convert.PlanConverter plan.jmx [--version MODE] &gt; plan-h2.jmx</pre>
 */
public final class PlanConverter {

    static final String HTTP_REQUEST = "HTTPSamplerProxy";
    static final String SAMPLER = "io.h2bench.sampler.Http2Sampler";
    static final String GUI = "io.h2bench.gui.Http2SamplerGui";
    static final String VERSION_PROPERTY = "H2Bench.httpVersion";

    private final ProtocolMode version;

    /** @param version written into every converted sampler; null: none (chosen by the URL's scheme) */
    public PlanConverter(ProtocolMode version) {
        this.version = version;
    }

    public static void main(String[] args) {
        PrintStream err = System.err;
        if (args.length != 1 && !(args.length == 3 && args[1].equals("--version"))) {
            err.println("usage: PlanConverter plan.jmx [--version HTTP_1_1|HTTP_2|H2C|H2C_UPGRADE|HTTP_3|HTTP_3_ALT_SVC] > plan-h2.jmx");
            System.exit(2);
        }
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            int converted = new PlanConverter(args.length == 3 ? ProtocolMode.parse(args[2]) : null).convert(in, System.out);
            err.println("Converted " + converted + " HTTP Request sampler(s) to h2bench samplers.");
        } catch (IOException | IllegalArgumentException failure) {
            err.println("Cannot convert " + args[0] + ": " + failure.getMessage());
            System.exit(1);
        }
    }

    /** Reads a plan, writes it converted; returns how many samplers were converted. */
    public int convert(InputStream plan, OutputStream out) throws IOException {
        Document document = parse(plan);
        List<Element> requests = httpRequests(document);
        for (Element request : requests) {
            convert(document, request);
        }
        write(document, out);
        return requests.size();
    }

    private static List<Element> httpRequests(Document document) {
        NodeList found = document.getElementsByTagName(HTTP_REQUEST);
        List<Element> requests = new ArrayList<>();
        for (int i = 0; i < found.getLength(); i++) {
            requests.add((Element) found.item(i));
        }
        return requests;
    }

    private void convert(Document document, Element request) {
        Element sampler = (Element) document.renameNode(request, null, SAMPLER);
        sampler.setAttribute("guiclass", GUI);
        sampler.setAttribute("testclass", SAMPLER);
        if (version != null) {
            Element property = document.createElement("stringProp");
            property.setAttribute("name", VERSION_PROPERTY);
            property.setTextContent(version.name());
            sampler.appendChild(property);
        }
    }

    private static Document parse(InputStream plan) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            return builder.parse(plan);
        } catch (ParserConfigurationException | SAXException malformed) {
            throw new IOException("not a JMeter plan (XML): " + malformed.getMessage(), malformed);
        }
    }

    private static void write(Document document, OutputStream out) throws IOException {
        try {
            Transformer transformer = TransformerFactory.newInstance().newTransformer();
            transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            transformer.transform(new DOMSource(document), new StreamResult(out));
        } catch (TransformerException failure) {
            throw new IOException(failure.getMessage(), failure);
        }
    }
}
