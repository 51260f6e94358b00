package io.h2bench.sampler;

import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.jmeter.protocol.http.parser.BaseParser;
import org.apache.jmeter.protocol.http.parser.LinkExtractorParseException;

/**
 * A JMeter link parser for the server's JSON collection ({@code "_links":{"item":[{"href":…}]}}),
 * registered for {@code application/json} in {@link InProcessJMeter}: with it the collection loads
 * like a page and its items as embedded resources, as seed 004's browser fetched them.
 */
public final class HalLinks extends BaseParser {

    private static final Pattern HREF = Pattern.compile("\"href\":\"([^\"]+)\"");

    @Override
    public Iterator<URL> getEmbeddedResourceURLs(String userAgent, byte[] responseData, URL baseUrl, String encoding)
            throws LinkExtractorParseException {
        Set<URL> links = new LinkedHashSet<>();
        Matcher href = HREF.matcher(new String(responseData, StandardCharsets.UTF_8));
        while (href.find()) {
            try {
                links.add(new URL(baseUrl, href.group(1)));
            } catch (MalformedURLException invalid) {
                throw new LinkExtractorParseException(invalid);
            }
        }
        return links.iterator();
    }
}
