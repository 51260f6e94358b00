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
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * comparison.png: a title naming the network and the connection policy, then one grouped bar panel
 * per object (bars = the protocols measured for it, median elapsed in ms), each with its own scale,
 * because a 2 MB text and a 44 kB text share no useful axis. Same colour per protocol in every panel.
 */
public final class ComparisonChart {

    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 360;
    private static final int TITLE_HEIGHT = 56;
    private static final int COLUMNS = 2;
    private static final Paint[] PALETTE = {
        new Color(0x4E79A7), new Color(0xF28E2B), new Color(0x59A14F), new Color(0xE15759),
        new Color(0x76B7B2), new Color(0xEDC948), new Color(0xB07AA1), new Color(0x9C755F),
    };

    private ComparisonChart() {
    }

    public static void writePng(Comparison comparison, RunConditions conditions, Path file) throws IOException {
        List<String> objects = comparison.objects();
        int columns = Math.min(COLUMNS, objects.size());
        int rows = (objects.size() + columns - 1) / columns;
        BufferedImage image = new BufferedImage(columns * PANEL_WIDTH, TITLE_HEIGHT + rows * PANEL_HEIGHT,
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            title(conditions).draw(g, new Rectangle2D.Double(0, 0, image.getWidth(), TITLE_HEIGHT));
            for (int i = 0; i < objects.size(); i++) {
                Rectangle2D area = new Rectangle2D.Double((i % columns) * PANEL_WIDTH,
                        TITLE_HEIGHT + (i / columns) * PANEL_HEIGHT, PANEL_WIDTH, PANEL_HEIGHT);
                panelFor(comparison, objects.get(i)).draw(g, area);
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", file.toFile());
    }

    static JFreeChart title(RunConditions conditions) {
        JFreeChart title = new JFreeChart("h2bench protocol comparison", JFreeChart.DEFAULT_TITLE_FONT, new CategoryPlot(), false);
        title.addSubtitle(new TextTitle(conditions.heading()));
        title.setBackgroundPaint(Color.WHITE);
        title.getPlot().setOutlineVisible(false);
        return title;
    }

    /** The panel's series: the protocols this object has a median for, in the comparison's order. */
    static DefaultCategoryDataset dataset(Comparison comparison, String object) {
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        String category = object.isEmpty() ? "all samples" : object;
        for (ComparisonRow row : comparison.rowsOf(object)) {
            if (!Double.isNaN(row.median())) {
                dataset.addValue(row.median(), row.protocol(), category);
            }
        }
        return dataset;
    }

    private static JFreeChart panelFor(Comparison comparison, String object) {
        DefaultCategoryDataset dataset = dataset(comparison, object);
        JFreeChart chart = ChartFactory.createBarChart(object.isEmpty() ? "all samples" : object, null,
                "median elapsed (ms)", dataset, PlotOrientation.VERTICAL, true, false, false);
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
        // a protocol's colour comes from its place among all protocols, so it is the same in every panel
        List<String> protocols = comparison.protocols();
        for (int series = 0; series < dataset.getRowCount(); series++) {
            int index = protocols.indexOf((String) dataset.getRowKey(series));
            renderer.setSeriesPaint(series, PALETTE[index % PALETTE.length]);
        }
        return chart;
    }
}
