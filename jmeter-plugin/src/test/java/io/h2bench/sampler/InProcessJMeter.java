package io.h2bench.sampler;

import io.h2bench.parity.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.jmeter.util.JMeterUtils;

/** Just enough JMeter for a sampler to run inside a test: properties from a temporary file. */
final class InProcessJMeter {

    private static boolean initialised;

    private InProcessJMeter() {
    }

    static synchronized void init() {
        if (initialised) {
            return;
        }
        try {
            Path home = TempDirs.deletedAtExit("h2bench-jmeter");
            Path bin = Files.createDirectories(home.resolve("bin"));
            Path properties = bin.resolve("jmeter.properties");
            // The parsers of JMeter's stock jmeter.properties, so that embedded resources are found.
            Files.writeString(properties, String.join("\n",
                    "subresults.disable_renaming=true",
                    "HTTPResponse.parsers=htmlParser cssParser",
                    "htmlParser.className=org.apache.jmeter.protocol.http.parser.LagartoBasedHtmlParser",
                    "htmlParser.types=text/html application/xhtml+xml application/xml text/xml",
                    "cssParser.className=org.apache.jmeter.protocol.http.parser.CssParser",
                    "cssParser.types=text/css",
                    ""));
            JMeterUtils.setJMeterHome(home.toString());
            JMeterUtils.loadJMeterProperties(properties.toString());
            JMeterUtils.setLocale(Locale.ENGLISH);
            initialised = true;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
