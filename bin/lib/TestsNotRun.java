import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code java bin/lib/TestsNotRun.java ROOT [LINKS_FILE]}: every test that {@code mvn verify} did not
 * run, read from the Surefire and Failsafe XML reports under ROOT's modules, one line each:
 * "class.method: reason" for a skipped test, "class: ran no test" for a class whose set-up skipped
 * the whole class (the reports then list it but have no section for it). With LINKS_FILE, writes the
 * site report links such classes break, in bin/check-site-links' known-broken format, so the link check
 * names them instead of failing. Prints nothing when every test ran.
 */
public final class TestsNotRun {

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        List<String> notRun = new ArrayList<>();
        List<String> brokenLinks = new ArrayList<>();
        for (Path report : reports(root)) {
            Element suite = parse(report);
            String className = suite.getAttribute("name");
            NodeList cases = suite.getElementsByTagName("testcase");
            if (cases.getLength() == 0) {
                notRun.add(className + ": ran no test (its class set-up skipped it; see its output in " + root.relativize(report.getParent()) + ")");
                String page = report.getParent().getFileName().toString().startsWith("failsafe")
                        ? "failsafe-report.html" : "surefire-report.html";
                brokenLinks.add(page + "\t#" + className + "\t" + className + " ran no test in this run (bin/test lists why)");
            }
            for (int i = 0; i < cases.getLength(); i++) {
                Element test = (Element) cases.item(i);
                NodeList skipped = test.getElementsByTagName("skipped");
                if (skipped.getLength() > 0) {
                    notRun.add(className + "." + test.getAttribute("name") + ": " + reason((Element) skipped.item(0)));
                }
            }
        }
        notRun.forEach(System.out::println);
        if (args.length > 1) {
            Files.write(Path.of(args[1]), brokenLinks);
        }
    }

    /** The assumption's message: Surefire 3.2 writes it only in the stack trace's first lines. */
    private static String reason(Element skipped) {
        String text = skipped.getAttribute("message");
        if (text.isEmpty()) {
            text = skipped.getTextContent().split("\\R\\s*at ", 2)[0]
                    .replaceFirst("^[\\w.$]+(Exception|Error): ", "")
                    .replaceFirst("^Assumption failed: ", "");
        }
        text = text.replaceAll("\\s+", " ").trim();
        return text.isEmpty() ? "skipped, no reason given" : text;
    }

    private static List<Path> reports(Path root) throws IOException {
        try (Stream<Path> modules = Files.list(root)) {
            List<Path> directories = modules
                    .flatMap(module -> Stream.of(module.resolve("target/surefire-reports"), module.resolve("target/failsafe-reports")))
                    .filter(Files::isDirectory)
                    .sorted()
                    .toList();
            List<Path> reports = new ArrayList<>();
            for (Path directory : directories) {
                try (Stream<Path> files = Files.list(directory)) {
                    files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).sorted().forEach(reports::add);
                }
            }
            return reports;
        }
    }

    private static Element parse(Path report) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile()).getDocumentElement();
    }
}
