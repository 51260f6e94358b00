package io.h2bench.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** index.html of a waterfall report: one line per page sample, linking its SVG, with the page's total time. */
final class WaterfallIndex {

    /** One written waterfall. */
    record Entry(String file, PageSample page, List<WaterfallRow> rows) {
        long pushes() {
            return rows.stream().filter(WaterfallRow::pushed).count();
        }

        long connections() {
            return rows.stream().mapToLong(WaterfallRow::connectionId)
                    .filter(id -> id != WaterfallRow.UNKNOWN_CONNECTION).distinct().count();
        }
    }

    private final String source;
    private final List<Entry> entries = new ArrayList<>();

    WaterfallIndex(String source) {
        this.source = source;
    }

    void add(Entry entry) {
        entries.add(entry);
    }

    int size() {
        return entries.size();
    }

    String html() {
        StringBuilder html = new StringBuilder(1024 + entries.size() * 300);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Waterfalls of ")
                .append(WaterfallSvg.escape(source)).append("</title>\n<style>body{font-family:sans-serif;font-size:13px}")
                .append("table{border-collapse:collapse}td,th{padding:2px 10px;border-bottom:1px solid #ddd}")
                .append("td.n{text-align:right}.failed{color:#D00000}</style></head><body>\n<h1>Waterfalls of ")
                .append(WaterfallSvg.escape(source)).append("</h1>\n<p>").append(entries.size())
                .append(" page samples. Bars: grey queued, orange connect, green waiting, blue receiving;")
                .append(" a magenta mark is a push promise.</p>\n");
        if (entries.stream().anyMatch(entry -> entry.connections() == 0)) {
            html.append("<p>JMeter's XML JTL does not keep the sampler data of HTTP samples, so connection numbers")
                    .append(" (#?) and time queued for a connection or stream are not known: queued time is")
                    .append(" drawn as waiting. The h2bench Waterfall listener in the GUI shows both.</p>\n");
        }
        html.append("<table>\n<tr><th>#</th><th>page</th><th>total (ms)</th><th>requests</th><th>pushed</th>")
                .append("<th>started</th><th>result</th></tr>\n");
        for (int i = 0; i < entries.size(); i++) {
            row(html, i + 1, entries.get(i));
        }
        return html.append("</table>\n</body></html>\n").toString();
    }

    private static void row(StringBuilder html, int number, Entry entry) {
        PageSample page = entry.page();
        html.append("<tr").append(page.successful() ? "" : " class=\"failed\"").append("><td class=\"n\">")
                .append(number).append("</td><td><a href=\"").append(WaterfallSvg.escape(entry.file())).append("\">")
                .append(WaterfallSvg.escape(page.label())).append("</a></td><td class=\"n\">")
                .append(page.elapsedMillis()).append("</td><td class=\"n\">").append(entry.rows().size())
                .append("</td><td class=\"n\">").append(entry.pushes()).append("</td><td>")
                .append(Instant.ofEpochMilli(page.startMillis())).append("</td><td>")
                .append(page.successful() ? "ok" : "failed").append("</td></tr>\n");
    }
}
