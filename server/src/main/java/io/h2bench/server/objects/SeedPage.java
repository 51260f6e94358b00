package io.h2bench.server.objects;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 000's objects: a page of one stylesheet and fifteen photographs (~396 kB, the sizes of the
 * seed's DevTools waterfall), the same page inlined into one file, and two plain texts.
 */
public final class SeedPage {

    /** Body sizes of img1.jpeg … img15.jpeg in the seed's waterfall, in bytes. */
    static final int[] IMAGE_SIZES = {
        23_100, 26_200, 13_800, 13_000, 18_900, 18_600, 18_800, 41_900,
        34_200, 29_500, 45_200, 19_800, 29_800, 16_300, 45_100,
    };
    public static final int SMALL_TEXT_SIZE = 44 * 1024;
    public static final int LARGE_TEXT_SIZE = 2 * 1024 * 1024;

    private static final String HTML = "text/html;charset=utf-8";
    private static final String CSS = """
            body { margin: 0; font-family: sans-serif; background: #f4f4f4; color: #222; }
            header { padding: 1em 2em; background: #283593; color: #fff; }
            h1 { margin: 0; font-size: 1.6em; }
            main { display: flex; flex-wrap: wrap; gap: 8px; padding: 1em 2em; }
            main img { width: 300px; height: 225px; object-fit: cover; border-radius: 4px; }
            footer { padding: 1em 2em; font-size: 0.8em; color: #666; }
            """;

    private static volatile SeedPage instance;

    private final Map<String, StaticObject> objects;
    private final List<String> dependencies;

    private SeedPage() {
        Map<String, StaticObject> all = new LinkedHashMap<>();
        List<String> deps = new ArrayList<>();
        StaticObject css = StaticObject.of("/style.css", "text/css;charset=utf-8", CSS.getBytes(StandardCharsets.UTF_8));
        deps.add(css.path());
        List<StaticObject> images = new ArrayList<>();
        for (int i = 0; i < IMAGE_SIZES.length; i++) {
            String path = "/img" + (i + 1) + ".jpeg";
            images.add(StaticObject.of(path, "image/jpeg", JpegFactory.create(IMAGE_SIZES[i], 1000L + i)));
            deps.add(path);
        }
        all.put("/", StaticObject.of("/", HTML, page(false, css, images)));
        all.put(css.path(), css);
        images.forEach(image -> all.put(image.path(), image));
        all.put("/inline", StaticObject.of("/inline", HTML, page(true, css, images)));
        all.put("/small-text.txt", StaticObject.of("/small-text.txt", "text/plain;charset=utf-8",
                TextCorpus.generate(SMALL_TEXT_SIZE, 44)));
        all.put("/large-text.txt", StaticObject.of("/large-text.txt", "text/plain;charset=utf-8",
                TextCorpus.generate(LARGE_TEXT_SIZE, 2048)));
        this.objects = Map.copyOf(all);
        this.dependencies = List.copyOf(deps);
    }

    /** Built once per JVM: the images take a moment to encode and never change. */
    public static SeedPage get() {
        SeedPage page = instance;
        if (page == null) {
            synchronized (SeedPage.class) {
                page = instance;
                if (page == null) {
                    page = new SeedPage();
                    instance = page;
                }
            }
        }
        return page;
    }

    /** Every object by path: {@code /}, {@code /style.css}, {@code /imgN.jpeg}, {@code /inline}, texts. */
    public Map<String, StaticObject> objects() {
        return objects;
    }

    /** The page's sub-resources in document order: what {@code /push} pushes. */
    public List<String> dependencies() {
        return dependencies;
    }

    /** img1.jpeg … img15.jpeg in order. */
    public List<StaticObject> images() {
        return dependencies.subList(1, dependencies.size()).stream().map(objects::get).toList();
    }

    public StaticObject index() {
        return objects.get("/");
    }

    private static byte[] page(boolean inline, StaticObject css, List<StaticObject> images) {
        StringBuilder html = new StringBuilder(inline ? 600_000 : 1_200);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>h2bench test page</title>\n");
        if (inline) {
            html.append("<style>\n").append(new String(css.bytes(), StandardCharsets.UTF_8)).append("</style>\n");
        } else {
            html.append("<link rel=\"stylesheet\" href=\"style.css\">\n");
        }
        html.append("</head>\n<body>\n<header><h1>h2bench test page</h1></header>\n<main>\n");
        for (int i = 0; i < images.size(); i++) {
            String src = inline
                    ? "data:image/jpeg;base64," + Base64.getEncoder().encodeToString(images.get(i).bytes())
                    : images.get(i).path().substring(1);
            html.append("<img src=\"").append(src).append("\" alt=\"photo ").append(i + 1).append("\">\n");
        }
        html.append("</main>\n<footer>One stylesheet and fifteen photographs, as in the seed experiment.</footer>\n")
                .append("</body>\n</html>\n");
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }
}
