package io.h2bench.sampler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.jmeter.protocol.http.util.ConversionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded resources of a JSON response: the {@code href}s of its HAL {@code _links}, every
 * relation except {@code self}, as seed 004's browser fetched a REST collection's items. JMeter has
 * no link parser for JSON, and registering one takes a jmeter.properties edit; the sampler asks
 * this class directly instead.
 */
final class HalLinks {

    private static final Logger LOG = LoggerFactory.getLogger(HalLinks.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> MEDIA_TYPES = Set.of("application/json", "application/hal+json");

    private HalLinks() {
    }

    /** Whether a response of this media type ({@code HTTPSampleResult.getMediaType()}) is read here. */
    static boolean readsMediaType(String mediaType) {
        return mediaType != null && MEDIA_TYPES.contains(mediaType.trim().toLowerCase(Locale.ROOT));
    }

    /**
     * The links of a HAL document, resolved against its URL, in document order and without
     * duplicates. Not JSON, or no {@code _links}: none, and the sample is not failed for it.
     */
    static List<URL> of(byte[] json, URL base) {
        JsonNode links;
        try {
            links = JSON.readTree(json).path("_links");
        } catch (IOException invalid) {
            LOG.debug("No HAL links: the response from {} is not JSON: {}", base, invalid.getMessage());
            return List.of();
        }
        Set<URL> found = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> relation : iterable(links)) {
            if (!"self".equals(relation.getKey())) {
                // A relation holds one link object or an array of them.
                JsonNode value = relation.getValue();
                Iterable<JsonNode> each = value.isArray() ? value : List.of(value);
                each.forEach(link -> add(link, base, found));
            }
        }
        return new ArrayList<>(found);
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode links) {
        return links.isObject() ? links::fields : List.of();
    }

    /** A templated link is a URI template, not a URL a browser could fetch: skipped. */
    private static void add(JsonNode link, URL base, Set<URL> found) {
        JsonNode href = link.path("href");
        if (!href.isTextual() || link.path("templated").asBoolean(false)) {
            return;
        }
        try {
            // As JMeter treats the links its HTML parser finds: illegal characters escaped, path normalised.
            found.add(ConversionUtils.sanitizeUrl(new URL(base, href.asText())).normalize().toURL());
        } catch (MalformedURLException | URISyntaxException | IllegalArgumentException invalid) {
            LOG.debug("HAL link {} of {} is not a URL: {}", href.asText(), base, invalid.getMessage());
        }
    }
}
