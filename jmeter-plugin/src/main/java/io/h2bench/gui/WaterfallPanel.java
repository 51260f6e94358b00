package io.h2bench.gui;

import java.awt.Color;
import java.awt.Dimension;
import java.awt.Font;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import io.h2bench.report.WaterfallPhase;
import io.h2bench.report.WaterfallRow;
import java.util.List;
import java.awt.Rectangle;
import javax.swing.JPanel;
import javax.swing.Scrollable;

/** Plain Swing: paints waterfall rows on one time axis, with connection id, protocol, push marks and a legend. */
public class WaterfallPanel extends JPanel implements Scrollable {

    private static final long serialVersionUID = 1L;
    private static final int ROW = 20;
    private static final int LABEL_WIDTH = 260;
    private static final int INFO_WIDTH = 150;
    private static final int LEGEND = 16;
    private static final int TOP = 28 + LEGEND;

    private transient List<WaterfallRow> rows = List.of();

    public WaterfallPanel() {
        setBackground(Color.WHITE);
    }

    public void show(List<WaterfallRow> newRows) {
        rows = List.copyOf(newRows);
        setPreferredSize(new Dimension(LABEL_WIDTH + INFO_WIDTH + 300, TOP + ROW * (rows.size() + 1)));
        revalidate();
        repaint();
    }

    /** As wide as the scroll pane shows, so the time axis always fits; scrolls vertically only. */
    @Override
    public boolean getScrollableTracksViewportWidth() {
        return true;
    }

    @Override
    public boolean getScrollableTracksViewportHeight() {
        return false;
    }

    @Override
    public Dimension getPreferredScrollableViewportSize() {
        return getPreferredSize();
    }

    @Override
    public int getScrollableUnitIncrement(Rectangle visible, int orientation, int direction) {
        return ROW;
    }

    @Override
    public int getScrollableBlockIncrement(Rectangle visible, int orientation, int direction) {
        return Math.max(ROW, visible.height - ROW);
    }

    @Override
    protected void paintComponent(Graphics graphics) {
        super.paintComponent(graphics);
        Graphics2D g = (Graphics2D) graphics;
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        long span = Math.max(1, rows.stream().mapToLong(WaterfallRow::endMillis).max().orElse(1));
        int barsLeft = LABEL_WIDTH + INFO_WIDTH;
        int barsWidth = Math.max(100, getWidth() - barsLeft - 20);
        paintLegend(g);
        paintAxis(g, span, barsLeft, barsWidth);
        for (int i = 0; i < rows.size(); i++) {
            paintRow(g, rows.get(i), TOP + i * ROW, span, barsLeft, barsWidth);
        }
    }

    /** The phases' colours, as the SVG report's legend shows them. */
    private static void paintLegend(Graphics2D g) {
        int x = 4;
        for (WaterfallPhase phase : WaterfallPhase.values()) {
            g.setColor(new Color(phase.rgb()));
            g.fillRect(x, 4, 12, 10);
            g.setColor(Color.DARK_GRAY);
            g.drawString(phase.title(), x + 16, 13);
            x += 90;
        }
        g.setColor(new Color(WaterfallPhase.PUSH_RGB));
        g.fillPolygon(new int[] {x + 2, x + 10, x + 6}, new int[] {5, 5, 11}, 3);
        g.setColor(Color.DARK_GRAY);
        g.drawString("push promise", x + 16, 13);
    }

    private void paintAxis(Graphics2D g, long span, int left, int width) {
        g.setColor(Color.DARK_GRAY);
        g.drawString("resource", 4, 16 + LEGEND);
        g.drawString("conn / protocol", LABEL_WIDTH + 4, 16 + LEGEND);
        for (int tick = 0; tick <= 4; tick++) {
            int x = left + width * tick / 4;
            g.setColor(new Color(0xE0E0E0));
            g.drawLine(x, TOP - 6, x, TOP + rows.size() * ROW);
            g.setColor(Color.DARK_GRAY);
            g.drawString(span * tick / 4 + " ms", x - 10, 16 + LEGEND);
        }
    }

    private static void paintRow(Graphics2D g, WaterfallRow row, int y, long span, int left, int width) {
        g.setColor(row.successful() ? Color.BLACK : Color.RED);
        g.drawString(shorten(row.label(), 42), 4, y + 14);
        String connection = row.connectionId() == WaterfallRow.UNKNOWN_CONNECTION ? "#?" : "#" + row.connectionId();
        g.drawString(connection + " " + row.protocol() + (row.pushed() ? " push" : ""), LABEL_WIDTH + 4, y + 14);
        for (WaterfallPhase phase : WaterfallPhase.values()) {
            // The TLS handshake is drawn over the end of connect, inset, as a part of it.
            int inset = phase.inside() == null ? 5 : 7;
            segment(g, new Color(phase.rgb()), row.offsetMillis() + row.startOf(phase), phase.millis(row), y + inset,
                    ROW - 2 * inset, span, left, width);
        }
        if (row.pushed()) {
            int x = left + (int) (width * row.offsetMillis() / span);
            g.setColor(new Color(WaterfallPhase.PUSH_RGB));
            g.fillPolygon(new int[] {x - 4, x + 4, x}, new int[] {y + 2, y + 2, y + 8}, 3);
        }
    }

    private static void segment(Graphics2D g, Color color, long from, long length, int top, int height, long span,
                                int left, int width) {
        int x = left + (int) (width * from / span);
        int w = Math.max(length > 0 ? 1 : 0, (int) (width * length / span));
        g.setColor(color);
        g.fillRect(x, top, w, height);
    }

    private static String shorten(String text, int max) {
        return text.length() <= max ? text : "…" + text.substring(text.length() - max + 1);
    }
}
