package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class WaterfallSvgTest {

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static long count(Document svg, String element, String cssClass) {
        NodeList nodes = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", element);
        long found = 0;
        for (int i = 0; i < nodes.getLength(); i++) {
            found += ((Element) nodes.item(i)).getAttribute("class").equals(cssClass) ? 1 : 0;
        }
        return found;
    }

    @Test
    void shouldDrawOneRectPerPhaseAndAPushMarkWhenThePageWasPushed() throws Exception {
        PageSample page = WaterfallJtl.page("h2-push page");
        List<WaterfallRow> rows = WaterfallRow.of(page);

        Document svg = parse(WaterfallSvg.render(page, rows));

        assertThat(svg.getDocumentElement().getLocalName()).isEqualTo("svg");
        for (WaterfallPhase phase : WaterfallPhase.values()) {
            assertThat(count(svg, "rect", phase.name().toLowerCase()))
                    .as(phase.title()).isEqualTo(rows.stream().filter(row -> phase.millis(row) > 0).count());
        }
        assertThat(count(svg, "polygon", "push")).isEqualTo(16);
        assertThat(svg.getDocumentElement().getTextContent()).contains("h2-push page: " + page.elapsedMillis() + " ms");
    }

    @Test
    void shouldDrawTheTlsHandshakeInsideTheConnectSegmentWhenTheJtlCarriesIt() throws Exception {
        PageSample page = WaterfallJtl.samples("tls-page.xml").get(0);

        Document svg = parse(WaterfallSvg.render(page, WaterfallRow.of(page)));
        Element connect = only(svg, "connect");
        Element tls = only(svg, "tls");

        int connectEnd = x(connect) + width(connect);
        assertThat(x(tls)).isGreaterThan(x(connect));
        assertThat(x(tls) + width(tls)).isBetween(connectEnd - 1, connectEnd + 1);
        assertThat(number(tls, "y")).isGreaterThan(number(connect, "y"));
        assertThat(number(tls, "height")).isLessThan(number(connect, "height"));
        assertThat(svg.getDocumentElement().getTextContent()).contains("TLS").contains("connect 346 ms, TLS 340 ms");
    }

    private static Element only(Document svg, String cssClass) {
        NodeList rects = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
        List<Element> found = new java.util.ArrayList<>();
        for (int i = 0; i < rects.getLength(); i++) {
            Element rect = (Element) rects.item(i);
            if (rect.getAttribute("class").equals(cssClass)) {
                found.add(rect);
            }
        }
        assertThat(found).as(cssClass).hasSize(1);
        return found.get(0);
    }

    private static int x(Element rect) {
        return number(rect, "x");
    }

    private static int width(Element rect) {
        return number(rect, "width");
    }

    private static int number(Element rect, String attribute) {
        return Integer.parseInt(rect.getAttribute(attribute));
    }

    @Test
    void shouldUseThePanelColoursWhenDrawingPhases() throws Exception {
        PageSample page = WaterfallJtl.page("h2 page");

        String svg = WaterfallSvg.render(page, WaterfallRow.of(page));

        assertThat(svg).contains("class=\"connect\"").contains("fill=\"#F2A03D\"")
                .contains("class=\"waiting\"").contains("fill=\"#3DAA5C\"").doesNotContain("class=\"push\"");
    }

    @Test
    void shouldStayWellFormedWhenALabelHasMarkup() throws Exception {
        PageSample part = new PageSample("/a?x=1&y=<b>\"", 0, 5, 3, 0, 0, 10, false, "500", "", "HTTP/1.1 500 Oops\n", List.of());
        PageSample page = new PageSample("page & <co>", 0, 5, 3, 0, 0, 10, false, "500", "", "", List.of(part));

        Document svg = parse(WaterfallSvg.render(page, WaterfallRow.of(page)));

        assertThat(svg.getDocumentElement().getTextContent()).contains("page & <co>").contains("FAILED");
    }

    @Test
    void shouldKeepAtMostEightTicksWhenChoosingTheAxisStep() {
        assertThat(WaterfallSvg.tickStep(7)).isEqualTo(1);
        assertThat(WaterfallSvg.tickStep(196)).isEqualTo(50);
        assertThat(WaterfallSvg.tickStep(971)).isEqualTo(200);
        assertThat(WaterfallSvg.tickStep(12_000)).isEqualTo(2_000);
    }
}
