package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.gui.PageSamples;
import io.h2bench.gui.WaterfallPanel;
import io.h2bench.gui.WaterfallVisualizer;
import io.h2bench.report.WaterfallRow;
import io.h2bench.server.Listener;
import java.awt.Dimension;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The waterfall's rows come from real page loads; the picture is written to target/ for a look. */
class WaterfallTest {

    private SamplerFixture fixture;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("page");
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private SampleResult load(String path) {
        fixture.target(Listener.H2, path, ProtocolMode.HTTP_2).setImageParser(true);
        return fixture.sampler.sample();
    }

    @Test
    void shouldShowSeventeenBarsOnOneConnectionWhenAPageLoadsOverH2() throws Exception {
        List<WaterfallRow> rows = WaterfallRow.of(PageSamples.of(load("/")));

        assertThat(rows).hasSize(17);
        assertThat(rows).extracting(WaterfallRow::connectionId).containsOnly(rows.get(0).connectionId());
        assertThat(rows).extracting(WaterfallRow::protocol).containsOnly("HTTP/2.0");
        assertThat(rows.get(0).connectMillis()).isPositive();
        assertThat(rows.subList(1, 17)).allSatisfy(row -> {
            assertThat(row.offsetMillis()).isGreaterThanOrEqualTo(rows.get(0).endMillis() - 1);
            assertThat(row.connectMillis()).isZero();
        });
        render(rows, "waterfall-h2.png");
    }

    @Test
    void shouldMarkSixteenPushesWhenThePageIsPushed() throws Exception {
        List<WaterfallRow> rows = WaterfallRow.of(PageSamples.of(load("/push")));

        assertThat(rows).hasSize(17);
        assertThat(rows).filteredOn(WaterfallRow::pushed).hasSize(16);
        render(rows, "waterfall-h2-push.png");
    }

    @Test
    void shouldBuildTheListenerWhenJMeterCreatesIt() {
        WaterfallVisualizer listener = new WaterfallVisualizer();

        listener.add(load("/"));

        assertThat(listener.getStaticLabel()).isEqualTo("h2bench Waterfall");
    }

    private static void render(List<WaterfallRow> rows, String file) throws Exception {
        WaterfallPanel panel = new WaterfallPanel();
        panel.show(rows);
        Dimension size = new Dimension(1000, panel.getPreferredSize().height);
        panel.setSize(size);
        BufferedImage image = new BufferedImage(size.width, size.height, BufferedImage.TYPE_INT_RGB);
        panel.paint(image.getGraphics());
        Path out = Files.createDirectories(Path.of("target", "waterfall")).resolve(file);
        ImageIO.write(image, "png", out.toFile());
        assertThat(Files.size(out)).isPositive();
    }
}
