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
