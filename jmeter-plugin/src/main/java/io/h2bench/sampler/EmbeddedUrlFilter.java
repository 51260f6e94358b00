package io.h2bench.sampler;

import java.net.URL;
import java.util.function.Predicate;
import java.util.regex.PatternSyntaxException;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.oro.text.MalformedCachePatternException;
import org.apache.oro.text.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sampler's "URLs must match" / "URLs must not match" fields, applied to links JMeter's own
 * parsers did not find (HAL links) exactly as {@code HTTPSamplerBase} applies them to HTML links:
 * the whole URL must match, with the regex engine chosen by {@code jmeter.regex.engine}, and an
 * invalid expression is ignored with a warning.
 */
final class EmbeddedUrlFilter {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedUrlFilter.class);

    private EmbeddedUrlFilter() {
    }

    /** The links of this sampler's page that are fetched. */
    static Predicate<URL> of(HTTPSamplerBase sampler) {
        Predicate<URL> included = matcher(sampler.getEmbeddedUrlRE(), "allow", true);
        Predicate<URL> excluded = matcher(sampler.getEmbededUrlExcludeRE(), "exclude", false);
        return included.and(excluded.negate());
    }

    private static Predicate<URL> matcher(String regex, String role, boolean whenEmpty) {
        if (regex == null || regex.isEmpty()) {
            return url -> whenEmpty;
        }
        try {
            if (!"oro".equalsIgnoreCase(JMeterUtils.getPropDefault("jmeter.regex.engine", "oro"))) {
                java.util.regex.Pattern pattern = JMeterUtils.compilePattern(regex);
                return url -> pattern.matcher(url.toString()).matches();
            }
            Pattern pattern = JMeterUtils.getPattern(regex);
            return url -> JMeterUtils.getMatcher().matches(url.toString(), pattern);
        } catch (PatternSyntaxException | MalformedCachePatternException invalid) {
            LOG.warn("Ignoring embedded URL {} string: {}", role, invalid.getMessage());
            return url -> whenEmpty;
        }
    }
}
