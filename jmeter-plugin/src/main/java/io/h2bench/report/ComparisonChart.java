package io.h2bench.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * comparison.png: one grouped bar panel per object (bars = protocols, mean elapsed in ms), each with
 * its own scale, because a 2 MB text and a 44 kB text share no useful axis. Same colour per
 * protocol in every panel.
 */
public final class ComparisonChart {

    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 360;
    private static final int COLUMNS = 2;
    private static final Paint[] PALETTE = {
        new Color(0x4E79A7), new Color(0xF28E2B), new Color(0x59A14F), new Color(0xE15759),
        new Color(0x76B7B2), new Color(0xEDC948), new Color(0xB07AA1), new Color(0x9C755F),
    };

    private ComparisonChart() {
    }

    public static void writePng(Comparison comparison, Path file) throws IOException {
        List<String> objects = comparison.objects();
        int columns = Math.min(COLUMNS, objects.size());
        int rows = (objects.size() + columns - 1) / columns;
        BufferedImage image = new BufferedImage(columns * PANEL_WIDTH, rows * PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (int i = 0; i < objects.size(); i++) {
                Rectangle2D area = new Rectangle2D.Double(
                        (i % columns) * PANEL_WIDTH, (i / columns) * PANEL_HEIGHT, PANEL_WIDTH, PANEL_HEIGHT);
                panelFor(comparison, objects.get(i)).draw(g, area);
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", file.toFile());
    }

    private static JFreeChart panelFor(Comparison comparison, String object) {
        List<String> protocols = comparison.protocols();
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        String category = object.isEmpty() ? "all samples" : object;
        for (String protocol : protocols) {
            // every protocol is a series in every panel, so a protocol keeps its colour everywhere
            Double mean = comparison.rows().stream()
                    .filter(r -> r.object().equals(object) && r.protocol().equals(protocol))
                    .map(ComparisonRow::mean)
                    .filter(m -> !m.isNaN())
                    .findFirst().orElse(null);
            dataset.addValue(mean, protocol, category);
        }
        JFreeChart chart = ChartFactory.createBarChart(
                category, null, "mean elapsed (ms)", dataset, PlotOrientation.VERTICAL, true, false, false);
        chart.setBackgroundPaint(Color.WHITE);
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setBackgroundPaint(new Color(0xF7F7F7));
        plot.setRangeGridlinePaint(Color.GRAY);
        plot.getRangeAxis().setUpperMargin(0.15); // room for the value above the tallest bar
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setItemMargin(0.05);
        renderer.setDefaultItemLabelGenerator(
                new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("0.0")));
        renderer.setDefaultItemLabelsVisible(true);
        for (int series = 0; series < protocols.size(); series++) {
            renderer.setSeriesPaint(series, PALETTE[series % PALETTE.length]);
        }
        return chart;
    }
}
