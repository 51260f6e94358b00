package io.h2bench.server.objects;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 001's "average web page" spread over 16 origins {@code domain1.h2bench.test} …
 * {@code domain16.h2bench.test}: the seed's Table 1 gives the count of html, css, js, img, flash
 * and other files per domain (80 in all, domains 14 to 16 holding 30 of the images). The seed
 * gives no sizes, so: images take seed 000's waterfall JPEG sizes in turn (mean 26 kB), and the
 * other types get fixed sizes chosen so that the page totals about 1,900 kB, the median page weight
 * of the HTTP Archive's 2019 Web Almanac (the seed's year; the median page there has 74 requests).
 */
public final class AveragePage {

    public static final String PAGE_PATH = "/average-page";
    public static final String DOMAIN_SUFFIX = ".h2bench.test";
    static final String PREFIX = "/average/";

    /** Table 1 of the seed: html, css, js, img, flash, other per domain, domain1 first. */
    static final int[][] TABLE_1 = {
        {1, 1, 1, 0, 0, 0}, {1, 1, 1, 0, 0, 0}, {0, 0, 4, 0, 0, 1}, {0, 0, 4, 0, 0, 0},
        {0, 0, 4, 3, 0, 0}, {1, 1, 0, 0, 0, 0}, {1, 1, 0, 0, 0, 0}, {1, 1, 1, 0, 0, 1},
        {1, 1, 1, 0, 0, 0}, {1, 0, 0, 0, 0, 4}, {0, 0, 4, 3, 0, 1}, {1, 1, 0, 0, 0, 0},
        {1, 0, 0, 0, 1, 0}, {0, 0, 0, 10, 0, 0}, {0, 0, 0, 10, 0, 0}, {0, 0, 0, 10, 0, 0},
    };
    public static final int DOMAINS = TABLE_1.length;

    /** The file types of Table 1, with the size each file of the type gets here. */
    enum Kind {
        HTML("html", "html", "text/html;charset=utf-8", 10_000),
        CSS("css", "css", "text/css;charset=utf-8", 20_000),
        JS("js", "js", "text/javascript;charset=utf-8", 30_000),
        IMG("img", "jpeg", "image/jpeg", 0),
        FLASH("flash", "swf", "application/x-shockwave-flash", 40_000),
        OTHER("other", "bin", "application/octet-stream", 15_000);

        final String name;
        final String extension;
        final String contentType;
        final int size;

        Kind(String name, String extension, String contentType, int size) {
            this.name = name;
            this.extension = extension;
            this.contentType = contentType;
            this.size = size;
        }
    }

    private static volatile AveragePage instance;

    private final List<Map<String, StaticObject>> domains;

    private AveragePage(List<StaticObject> jpegs) {
        List<Map<String, StaticObject>> all = new ArrayList<>();
        int image = 0;
        for (int d = 0; d < DOMAINS; d++) {
            Map<String, StaticObject> objects = new LinkedHashMap<>();
            for (Kind kind : Kind.values()) {
                // domain1's html file is the page itself, not a resource of it.
                int first = d == 0 && kind == Kind.HTML ? 2 : 1;
                for (int n = first; n <= TABLE_1[d][kind.ordinal()]; n++) {
                    String path = PREFIX + kind.name + n + "." + kind.extension;
                    byte[] bytes = kind == Kind.IMG ? jpegs.get(image++ % jpegs.size()).bytes() : body(kind, d, n);
                    objects.put(path, StaticObject.of(path, kind.contentType, bytes));
                }
            }
            all.add(Map.copyOf(objects));
        }
        this.domains = List.copyOf(all);
    }

    /** Built once per JVM, from seed 000's images. */
    public static AveragePage get() {
        AveragePage page = instance;
        if (page == null) {
            synchronized (AveragePage.class) {
                page = instance;
                if (page == null) {
                    page = new AveragePage(SeedPage.get().images());
                    instance = page;
                }
            }
        }
        return page;
    }

    /** {@code domainN.h2bench.test} for N from 1 to 16. */
    public static String host(int domain) {
        return "domain" + domain + DOMAIN_SUFFIX;
    }

    /** The domain number of a host name, or 0 when it is none of the 16. */
    public static int domainOf(String host) {
        if (host == null || !host.startsWith("domain") || !host.endsWith(DOMAIN_SUFFIX)) {
            return 0;
        }
        String number = host.substring("domain".length(), host.length() - DOMAIN_SUFFIX.length());
        try {
            int domain = Integer.parseInt(number);
            return domain >= 1 && domain <= DOMAINS && number.equals(Integer.toString(domain)) ? domain : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The resources a domain serves (domain1's page excluded), by path. */
    public Map<String, StaticObject> objects(int domain) {
        return domains.get(domain - 1);
    }

    /** Every resource the page embeds: 79 files, the page being the 80th. */
    public int resourceCount() {
        return domains.stream().mapToInt(Map::size).sum();
    }

    /**
     * The page for a client that reached it as {@code scheme://…:port}: every resource as an
     * absolute URL on its own origin, with tags that both browsers and JMeter's parser fetch.
     */
    public byte[] html(String scheme, int port) {
        StringBuilder html = new StringBuilder(16_000);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>h2bench average page (seed 001)</title>\n");
        for (int d = 1; d <= DOMAINS; d++) {
            String origin = scheme + "://" + host(d) + ":" + port;
            for (String path : objects(d).keySet()) {
                html.append(tag(origin + path, path)).append('\n');
            }
        }
        html.append("</head>\n<body>\n<p>80 files on 16 origins, as in the seed's Table 1.</p>\n</body>\n</html>\n");
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String tag(String url, String path) {
        if (path.endsWith(".css")) {
            return "<link rel=\"stylesheet\" href=\"" + url + "\">";
        } else if (path.endsWith(".js")) {
            return "<script src=\"" + url + "\" defer></script>";
        } else if (path.endsWith(".jpeg")) {
            return "<img src=\"" + url + "\" alt=\"\">";
        } else if (path.endsWith(".html")) {
            return "<iframe src=\"" + url + "\" title=\"frame\"></iframe>";
        }
        // Flash and "other" as image preloads: fetched by browsers with credentials (no separate
        // anonymous connection) and by JMeter's parser (rel=preload).
        return "<link rel=\"preload\" as=\"image\" href=\"" + url + "\">";
    }

    private static byte[] body(Kind kind, int domain, int n) {
        long seed = 100L * domain + n;
        return switch (kind) {
            case HTML -> TextCorpus.wrapped(kind.size, seed, "<!DOCTYPE html>\n<html><body><pre>\n", "</pre></body></html>\n");
            case CSS, JS -> TextCorpus.wrapped(kind.size, seed, "/*\n", "*/\n");
            default -> TextCorpus.generate(kind.size, seed);
        };
    }
}
