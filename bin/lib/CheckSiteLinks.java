import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code java bin/lib/CheckSiteLinks.java SITE_DIR EXTERNAL_LIST KNOWN_BROKEN...}: every link and
 * image in the generated site's HTML and CSS that points inside the site must reach a file, and
 * every {@code #anchor} an id or name in that file. External links are only listed (CI has no
 * network). KNOWN_BROKEN lists, one "page TAB link TAB why" a line, breakage we cannot fix (bugs of
 * the JDK's javadoc); they are reported but do not fail. Prints the broken links, exits 1 if any.
 */
public final class CheckSiteLinks {
    // Scripts and comments hold text that looks like markup; only real tags carry links.
    private static final Pattern NOT_MARKUP =
            Pattern.compile("(?is)<script\\b[^>]*>.*?</script>|<!--.*?-->");
    private static final Pattern TAG = Pattern.compile("(?s)<([a-zA-Z][a-zA-Z0-9]*)\\b([^>]*)>");
    private static final Pattern ATTRIBUTE =
            Pattern.compile("(?s)([a-zA-Z_:][-a-zA-Z0-9_:.]*)\\s*=\\s*(\"[^\"]*\"|'[^']*'|[^\\s\"'>]+)");
    private static final Pattern CSS_URL = Pattern.compile("url\\(\\s*['\"]?([^'\")]+?)['\"]?\\s*\\)");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final Set<String> LINK_ATTRIBUTES = Set.of("href", "src");

    private final Path site;
    private final Map<Path, Set<String>> anchorsByPage = new HashMap<>();
    private final Map<String, String> knownBroken;
    private final List<String> broken = new ArrayList<>();
    private final List<String> known = new ArrayList<>();
    private final Map<String, Set<String>> externalToPages = new TreeMap<>();
    private int checked;

    private CheckSiteLinks(Path site, Map<String, String> knownBroken) {
        this.site = site.toAbsolutePath().normalize();
        this.knownBroken = knownBroken;
    }

    public static void main(String[] args) throws IOException {
        Path site = Path.of(args.length > 0 ? args[0] : "target/site");
        Path externalList = Path.of(args.length > 1 ? args[1] : "target/site-external-links.txt");
        Map<String, String> knownBroken = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            knownBroken.putAll(readKnownBroken(Path.of(args[i])));
        }
        if (!Files.isRegularFile(site.resolve("index.html"))) {
            System.err.println("check-site-links: no " + site.resolve("index.html") + " (run mvn site first)");
            System.exit(2);
        }
        CheckSiteLinks checker = new CheckSiteLinks(site, knownBroken);
        try (Stream<Path> files = Files.walk(checker.site)) {
            files.filter(Files::isRegularFile).sorted().forEach(checker::checkFile);
        }
        checker.writeExternal(externalList);
        checker.known.forEach(line -> System.out.println("known, not ours: " + line));
        checker.broken.forEach(line -> System.out.println("BROKEN: " + line));
        System.out.printf("check-site-links: %d internal links and images checked in %s, %d broken"
                        + " (and %d known, not ours); %d external links listed in %s (not fetched)%n",
                checker.checked, site, checker.broken.size(), checker.known.size(),
                checker.externalToPages.size(), externalList);
        System.exit(checker.broken.isEmpty() ? 0 : 1);
    }

    private void checkFile(Path file) {
        String name = file.getFileName().toString();
        if (name.endsWith(".html")) {
            for (String link : htmlLinks(read(file))) {
                check(file, link);
            }
        } else if (name.endsWith(".css")) {
            Matcher url = CSS_URL.matcher(read(file));
            while (url.find()) {
                check(file, url.group(1));
            }
        }
    }

    private static List<String> htmlLinks(String html) {
        List<String> links = new ArrayList<>();
        Matcher tag = TAG.matcher(NOT_MARKUP.matcher(html).replaceAll(""));
        while (tag.find()) {
            Matcher attribute = ATTRIBUTE.matcher(tag.group(2));
            while (attribute.find()) {
                if (LINK_ATTRIBUTES.contains(attribute.group(1).toLowerCase())) {
                    links.add(unescape(unquote(attribute.group(2))));
                }
            }
        }
        return links;
    }

    private void check(Path page, String link) {
        String url = link.strip();
        if (url.isEmpty() || url.startsWith("data:") || url.startsWith("javascript:")) {
            return;
        }
        if (url.startsWith("//") || SCHEME.matcher(url).find()) {
            if (!url.startsWith("mailto:")) {
                externalToPages.computeIfAbsent(url, u -> new TreeSet<>()).add(relative(page));
            }
            return;
        }
        checked++;
        int hash = url.indexOf('#');
        String fragment = hash >= 0 ? decode(url.substring(hash + 1)) : "";
        String path = hash >= 0 ? url.substring(0, hash) : url;
        int query = path.indexOf('?');
        path = decode(query >= 0 ? path.substring(0, query) : path);

        Path target = path.isEmpty() ? page
                : path.startsWith("/") ? site.resolve(path.substring(1)).normalize()
                : page.getParent().resolve(path).normalize();
        if (Files.isDirectory(target)) {
            target = target.resolve("index.html");
        }
        if (!target.startsWith(site)) {
            report(page, link, "outside the site");
        } else if (!Files.isRegularFile(target)) {
            report(page, link, "no file " + relative(target));
        } else if (!fragment.isEmpty() && target.toString().endsWith(".html")
                && !anchors(target).contains(fragment)) {
            report(page, link, "no id or name \"" + fragment + "\" in " + relative(target));
        }
    }

    private void report(Path page, String link, String problem) {
        String line = relative(page) + ": " + link + " -> " + problem;
        String why = knownBroken.get(relative(page) + "\t" + link);
        if (why != null) {
            known.add(line + " (" + why + ")");
        } else {
            broken.add(line);
        }
    }

    private static Map<String, String> readKnownBroken(Path file) throws IOException {
        Map<String, String> known = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] fields = line.split("\t", 3);
            if (!line.isBlank() && !line.startsWith("#") && fields.length == 3) {
                known.put(fields[0] + "\t" + fields[1], fields[2]);
            }
        }
        return known;
    }

    private Set<String> anchors(Path page) {
        return anchorsByPage.computeIfAbsent(page, p -> {
            Set<String> anchors = new HashSet<>();
            Matcher tag = TAG.matcher(NOT_MARKUP.matcher(read(p)).replaceAll(""));
            while (tag.find()) {
                Matcher attribute = ATTRIBUTE.matcher(tag.group(2));
                while (attribute.find()) {
                    String key = attribute.group(1).toLowerCase();
                    if (key.equals("id") || key.equals("name")) {
                        anchors.add(unescape(unquote(attribute.group(2))));
                    }
                }
            }
            return anchors;
        });
    }

    private void writeExternal(Path list) throws IOException {
        List<String> lines = new ArrayList<>();
        externalToPages.forEach((url, pages) -> lines.add(url + "\t" + String.join(" ", pages)));
        if (list.getParent() != null) {
            Files.createDirectories(list.getParent());
        }
        Files.write(list, lines);
    }

    private String relative(Path file) {
        return site.relativize(file).toString();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            // a site file that is not UTF-8 (a font, say, misnamed) has no links to check
            if (e instanceof java.nio.charset.MalformedInputException) {
                return "";
            }
            throw new UncheckedIOException(e);
        }
    }

    private static String unquote(String value) {
        boolean quoted = value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'');
        return quoted ? value.substring(1, value.length() - 1) : value;
    }

    private static String unescape(String value) {
        return value.replace("&amp;", "&").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&lt;", "<").replace("&gt;", ">");
    }

    // URLDecoder would turn '+' into a space, which is a literal '+' in a path or fragment
    private static String decode(String value) {
        return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
