package io.h2bench.report;

import java.time.Instant;
import java.util.List;

/**
 * A page load's waterfall as one self-contained SVG (no scripts, fonts or style sheets to fetch):
 * the layout of the listener's panel, with a legend, a time axis and a tooltip on every bar.
 * Each phase is a {@code <rect class="blocked|connect|tls|waiting|receiving">} (the TLS handshake's
 * over the end of connect's, inset, as a part of it), a push a {@code <polygon class="push">}.
 */
public final class WaterfallSvg {

    private static final int WIDTH = 1200;
    private static final int ROW = 20;
    private static final int LABEL_WIDTH = 300;
    private static final int INFO_WIDTH = 150;
    private static final int BARS_LEFT = LABEL_WIDTH + INFO_WIDTH;
    private static final int BARS_WIDTH = WIDTH - BARS_LEFT - 30;
    private static final int HEADER = 64;
    private static final int LABEL_CHARS = 48;

    private WaterfallSvg() {
    }

    /** The picture of {@code page}: its title line, then one bar per row. */
    public static String render(PageSample page, List<WaterfallRow> rows) {
        long span = Math.max(1, rows.stream().mapToLong(WaterfallRow::endMillis).max().orElse(1));
        int height = HEADER + ROW * rows.size() + 24;
        StringBuilder svg = new StringBuilder(4096 + rows.size() * 700);
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"11\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#FFFFFF\"/>\n");
        title(svg, page, rows.size());
        legend(svg);
        axis(svg, span, rows.size());
        for (int i = 0; i < rows.size(); i++) {
            row(svg, rows.get(i), HEADER + i * ROW, span);
        }
        return svg.append("</svg>\n").toString();
    }

    private static void title(StringBuilder svg, PageSample page, int rows) {
        String text = page.label() + ": " + page.elapsedMillis() + " ms, " + rows + (rows == 1 ? " request" : " requests")
                + (page.successful() ? "" : ", FAILED") + " (started " + Instant.ofEpochMilli(page.startMillis()) + ")";
        svg.append("<text x=\"4\" y=\"16\" font-size=\"13\" font-weight=\"bold\"").append(fill(page.successful()))
                .append('>').append(escape(text)).append("</text>\n");
    }

    private static void legend(StringBuilder svg) {
        int x = 4;
        for (WaterfallPhase phase : WaterfallPhase.values()) {
            svg.append("<rect x=\"").append(x).append("\" y=\"24\" width=\"12\" height=\"10\" fill=\"")
                    .append(colour(phase.rgb())).append("\"/><text x=\"").append(x + 16).append("\" y=\"33\">")
                    .append(phase.title()).append("</text>\n");
            x += 90;
        }
        svg.append("<polygon points=\"").append(x + 2).append(",25 ").append(x + 10).append(",25 ").append(x + 6)
                .append(",31\" fill=\"").append(colour(WaterfallPhase.PUSH_RGB)).append("\"/><text x=\"").append(x + 16)
                .append("\" y=\"33\">push promise</text>\n");
    }

    private static void axis(StringBuilder svg, long span, int rows) {
        int top = HEADER - 14;
        int bottom = HEADER + rows * ROW;
        svg.append("<text x=\"4\" y=\"").append(top + 8).append("\" fill=\"#404040\">resource</text>")
                .append("<text x=\"").append(LABEL_WIDTH + 4).append("\" y=\"").append(top + 8)
                .append("\" fill=\"#404040\">conn / protocol</text>\n");
        long step = tickStep(span);
        for (long tick = 0; tick <= span; tick += step) {
            int x = x(tick, span);
            svg.append("<line x1=\"").append(x).append("\" y1=\"").append(top + 10).append("\" x2=\"").append(x)
                    .append("\" y2=\"").append(bottom).append("\" stroke=\"#E0E0E0\"/><text x=\"").append(x)
                    .append("\" y=\"").append(top + 8).append("\" text-anchor=\"middle\" fill=\"#404040\">")
                    .append(tick).append(" ms</text>\n");
        }
    }

    /** 1, 2 or 5 times a power of ten, so the axis has at most eight ticks. */
    static long tickStep(long span) {
        long power = 1;
        while (true) {
            for (long factor : new long[] {1, 2, 5}) {
                if (span / (factor * power) <= 8) {
                    return factor * power;
                }
            }
            power *= 10;
        }
    }

    private static void row(StringBuilder svg, WaterfallRow row, int y, long span) {
        String connection = row.connectionId() == WaterfallRow.UNKNOWN_CONNECTION ? "#?" : "#" + row.connectionId();
        svg.append("<g><title>").append(escape(tooltip(row))).append("</title>\n")
                .append("<text x=\"4\" y=\"").append(y + 14).append('"').append(fill(row.successful())).append('>')
                .append(escape(shorten(row.label()))).append("</text><text x=\"").append(LABEL_WIDTH + 4)
                .append("\" y=\"").append(y + 14).append("\">")
                .append(escape(connection + " " + row.protocol() + (row.pushed() ? " push" : ""))).append("</text>\n");
        for (WaterfallPhase phase : WaterfallPhase.values()) {
            long length = phase.millis(row);
            if (length > 0) {
                long at = row.offsetMillis() + row.startOf(phase);
                int x = x(at, span);
                int width = Math.max(1, x(at + length, span) - x);
                int inset = phase.inside() == null ? 5 : 7;
                svg.append("<rect class=\"").append(phase.name().toLowerCase(java.util.Locale.ROOT)).append("\" x=\"")
                        .append(x).append("\" y=\"").append(y + inset).append("\" width=\"").append(width)
                        .append("\" height=\"").append(ROW - 2 * inset).append("\" fill=\"").append(colour(phase.rgb()))
                        .append("\"/>\n");
            }
        }
        if (row.pushed()) {
            int x = x(row.offsetMillis(), span);
            svg.append("<polygon class=\"push\" points=\"").append(x - 4).append(',').append(y + 2).append(' ')
                    .append(x + 4).append(',').append(y + 2).append(' ').append(x).append(',').append(y + 8)
                    .append("\" fill=\"").append(colour(WaterfallPhase.PUSH_RGB)).append("\"/>\n");
        }
        svg.append("</g>\n");
    }

    private static String tooltip(WaterfallRow row) {
        StringBuilder text = new StringBuilder(row.label()).append("\nstarts at ").append(row.offsetMillis()).append(" ms");
        for (WaterfallPhase phase : WaterfallPhase.values()) {
            text.append(", ").append(phase.title()).append(' ').append(phase.millis(row)).append(" ms");
        }
        return text.append(row.successful() ? "" : "\nfailed").toString();
    }

    private static int x(long millis, long span) {
        return BARS_LEFT + (int) (BARS_WIDTH * millis / span);
    }

    private static String fill(boolean successful) {
        return successful ? "" : " fill=\"#D00000\"";
    }

    private static String colour(int rgb) {
        return String.format("#%06X", rgb);
    }

    private static String shorten(String text) {
        return text.length() <= LABEL_CHARS ? text : "…" + text.substring(text.length() - LABEL_CHARS + 1);
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                default -> out.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return out.toString();
    }
}
