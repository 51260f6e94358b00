package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class XmlJtlReaderTest {

    @TempDir
    Path dir;

    @Test
    void shouldNestSubResultsUnderTheirPageWhenReadingARealRun() throws Exception {
        List<PageSample> samples = WaterfallJtl.samples("pages.xml");

        assertThat(samples).extracting(PageSample::label)
                .containsExactly("h1 page", "h2 page", "h2 small-text", "h2-push page");
        PageSample h2 = samples.get(1);
        assertThat(h2.parts()).hasSize(17);
        assertThat(h2.parts().get(0).label()).isEqualTo("h2 page-0");
        assertThat(h2.parts().get(0).responseHeaders()).startsWith("HTTP/2.0 200 OK\n");
        assertThat(h2.parts().get(1).parts()).isEmpty();
        assertThat(samples.get(2).parts()).isEmpty();
    }

    @Test
    void shouldGiveEachPartItsTlsTimeFromThePagesListWhenJMeterSavedTheVariables() throws Exception {
        // JMeter wrote h2benchTls="340" on every part; only the list says whose handshake it was.
        PageSample page = WaterfallJtl.samples("tls-page.xml").get(0);

        assertThat(page.tlsMillis()).isEqualTo(340);
        assertThat(page.parts()).hasSize(17);
        assertThat(page.parts().get(0).tlsMillis()).isEqualTo(340).isLessThanOrEqualTo(page.parts().get(0).connectMillis());
        assertThat(page.parts().subList(1, 17)).extracting(PageSample::tlsMillis).containsOnly(0L);
    }

    @Test
    void shouldReadNoTlsWhenTheJtlLacksTheVariables() throws Exception {
        assertThat(WaterfallJtl.page("h2 page").parts()).extracting(PageSample::tlsMillis).containsOnly(0L);
    }

    @Test
    void shouldTakeTimeStampsAsStartsWhenJMeterStampsAtTheStart() throws Exception {
        PageSample page = WaterfallJtl.page("h2 page");
        PageSample first = page.parts().get(0);

        // JMeter 5.6.3's jmeter.properties: sampleresult.timestamp.start=true
        assertThat(first.startMillis()).isEqualTo(page.startMillis());
        assertThat(page.parts()).allSatisfy(part -> assertThat(part.endMillis()).isLessThanOrEqualTo(page.endMillis() + 1));
    }

    @Test
    void shouldStopReadingWhenTheHandlerSaysSo() throws Exception {
        List<PageSample> seen = new ArrayList<>();

        new XmlJtlReader(WaterfallJtl.named("pages.xml"), false).read(sample -> seen.add(sample) && seen.size() < 2);

        assertThat(seen).hasSize(2);
    }

    @Test
    void shouldNameTheOptionsWhenGivenACsvJtl() throws Exception {
        Path csv = Files.writeString(dir.resolve("results.jtl"), TestJtl.HEADER + "\n1,2,h2 page,200,OK,t,text,true,,1,1,1,1,u,1,0,1\n");

        assertThatThrownBy(() -> new XmlJtlReader(csv, false).read(sample -> true))
                .isInstanceOf(JtlFormatException.class)
                .hasMessageContaining("is not an XML JTL")
                .hasMessageContaining("-Jjmeter.save.saveservice.output_format=xml");
    }

    @Test
    void shouldReportTheLineWhenTheXmlIsCutShort() throws Exception {
        String whole = Files.readString(WaterfallJtl.named("pages.xml"));
        Path cut = Files.writeString(dir.resolve("cut.xml"), whole.substring(0, whole.length() / 2));

        assertThatThrownBy(() -> new XmlJtlReader(cut, false).read(sample -> true))
                .isInstanceOf(JtlFormatException.class)
                .hasMessageContaining("not well-formed XML")
                .hasMessageMatching(".*cut\\.xml line \\d+: .*");
    }
}
