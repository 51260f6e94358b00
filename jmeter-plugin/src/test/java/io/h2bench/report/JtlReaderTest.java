package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlReaderTest {

    @TempDir
    Path dir;

    @Test
    void shouldReadEveryColumnWhenJtlHasJMeterDefaultHeader() throws Exception {
        List<Sample> samples = JtlReader.read(TestJtl.small());

        assertThat(samples).hasSize(12);
        assertThat(samples.get(0)).isEqualTo(new Sample(1795300000000L, 40, "h1 page", "200", "OK", "compare 1-1",
                true, "", 396000, 2100, 3, 2));
    }

    @Test
    void shouldKeepQuotedCommasWhenFailureMessageHasThem() throws Exception {
        Sample failed = JtlReader.read(TestJtl.small()).get(8);

        assertThat(failed.success()).isFalse();
        assertThat(failed.failureMessage()).isEqualTo("Response timeout, no \"last byte\" after 1000 ms");
    }

    @Test
    void shouldReadColumnsInAnyOrderWhenOptionalOnesAreMissing() throws Exception {
        Path jtl = write("success,label,elapsed\ntrue,h2 page,12\n");

        assertThat(JtlReader.read(jtl)).containsExactly(
                new Sample(-1, 12, "h2 page", "", "", "", true, "", -1, -1, -1, -1));
    }

    @Test
    void shouldReadTabSeparatedJtlWhenHeaderUsesTabs() throws Exception {
        Path jtl = write("label\telapsed\tsuccess\nh1 page\t7\ttrue\n");

        assertThat(JtlReader.read(jtl)).extracting(Sample::elapsed).containsExactly(7L);
    }

    @Test
    void shouldSayNoSuchFileWhenJtlIsMissing() {
        assertThatThrownBy(() -> JtlReader.read(dir.resolve("absent.jtl")))
                .isInstanceOf(JtlFormatException.class)
                .hasMessageEndingWith("absent.jtl: no such file");
    }

    @Test
    void shouldAskForCsvWhenJtlIsXml() throws Exception {
        Path jtl = write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n");

        assertThatThrownBy(() -> JtlReader.read(jtl)).hasMessageContaining("is an XML JTL; save results as CSV");
    }

    @Test
    void shouldNameMissingColumnWhenHeaderHasNoLabel() throws Exception {
        Path jtl = write("timeStamp,elapsed,success\n1,2,true\n");

        assertThatThrownBy(() -> JtlReader.read(jtl)).hasMessageContaining("no 'label' column");
    }

    @Test
    void shouldNameLineAndColumnWhenElapsedIsNotANumber() throws Exception {
        Path jtl = write(TestJtl.HEADER + "\n1,5,h1,200,OK,t,text,true,,1,1,1,1,u,1,0,0\n"
                + "1,abc,h1,200,OK,t,text,true,,1,1,1,1,u,1,0,0\n");

        assertThatThrownBy(() -> JtlReader.read(jtl)).hasMessageContaining("line 3: elapsed 'abc' is not a number");
    }

    @Test
    void shouldSayNoSamplesWhenJtlHasOnlyItsHeader() throws Exception {
        Path jtl = write(TestJtl.HEADER + "\n");

        assertThatThrownBy(() -> JtlReader.read(jtl)).hasMessageContaining("no samples");
    }

    @Test
    void shouldSayEmptyWhenJtlIsEmpty() throws Exception {
        Path jtl = write("");

        assertThatThrownBy(() -> JtlReader.read(jtl)).hasMessageEndingWith("is empty");
    }

    private Path write(String content) throws IOException {
        return Files.writeString(dir.resolve("results.jtl"), content);
    }
}
