package io.h2bench.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** The migration command: a plan's HTTP Requests become h2bench samplers with every field kept. */
class PlanConverterTest {

    /** A real plan of this project with a JMeter HTTP Request (HttpClient4) in it. */
    private static final Path PLAN = Path.of("..", "test-plans", "throughput.jmx");

    @Test
    void shouldKeepEveryFieldWhenAnHttpRequestBecomesAnH2benchSampler() throws Exception {
        Document before = parse(Files.readAllBytes(PLAN));
        List<String> fieldsBefore = fields(before, PlanConverter.HTTP_REQUEST);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int converted;
        try (InputStream in = Files.newInputStream(PLAN)) {
            converted = new PlanConverter(null).convert(in, out);
        }
        Document after = parse(out.toByteArray());

        assertThat(converted).isPositive();
        assertThat(after.getElementsByTagName(PlanConverter.HTTP_REQUEST).getLength()).isZero();
        assertThat(fields(after, PlanConverter.SAMPLER)).containsAll(fieldsBefore);
        Element sampler = (Element) after.getElementsByTagName(PlanConverter.SAMPLER).item(0);
        assertThat(sampler.getAttribute("guiclass")).isEqualTo(PlanConverter.GUI);
        assertThat(sampler.getAttribute("testclass")).isEqualTo(PlanConverter.SAMPLER);
        // No version written: the sampler picks HTTP/1.1 for http://, HTTP/2 for https://.
        assertThat(new String(out.toByteArray(), StandardCharsets.UTF_8)).doesNotContain(
                "<stringProp name=\"" + PlanConverter.VERSION_PROPERTY + "\">" + ProtocolMode.H2C);
    }

    @Test
    void shouldWriteTheVersionIntoEachConvertedSamplerWhenOneIsAskedFor() throws Exception {
        String plan = "<jmeterTestPlan><hashTree><HTTPSamplerProxy guiclass=\"HttpTestSampleGui\" testclass=\"HTTPSamplerProxy\""
                + " testname=\"home\"><stringProp name=\"HTTPSampler.path\">/</stringProp></HTTPSamplerProxy><hashTree/>"
                + "</hashTree></jmeterTestPlan>";
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        new PlanConverter(ProtocolMode.H2C).convert(new ByteArrayInputStream(plan.getBytes(StandardCharsets.UTF_8)), out);

        assertThat(new String(out.toByteArray(), StandardCharsets.UTF_8))
                .contains("<io.h2bench.sampler.Http2Sampler guiclass=\"io.h2bench.gui.Http2SamplerGui\"")
                .contains("testname=\"home\"")
                .contains("<stringProp name=\"HTTPSampler.path\">/</stringProp>")
                .contains("<stringProp name=\"H2Bench.httpVersion\">H2C</stringProp>");
    }

    private static Document parse(byte[] xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    }

    /** Every property of every sampler of that element name, as name=value lines. */
    private static List<String> fields(Document document, String element) {
        List<String> fields = new ArrayList<>();
        NodeList samplers = document.getElementsByTagName(element);
        for (int i = 0; i < samplers.getLength(); i++) {
            Element sampler = (Element) samplers.item(i);
            String name = sampler.getAttribute("testname");
            NodeList children = sampler.getElementsByTagName("*");
            for (int j = 0; j < children.getLength(); j++) {
                Node child = children.item(j);
                fields.add(name + " " + child.getNodeName() + " " + ((Element) child).getAttribute("name") + "=" + child.getTextContent());
            }
        }
        return fields;
    }
}
