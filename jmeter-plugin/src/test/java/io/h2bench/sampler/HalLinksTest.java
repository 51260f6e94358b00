package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The HAL reading on its own: which hrefs of a JSON document become a page's resources. */
class HalLinksTest {

    private static final String BASE = "https://127.0.0.1:8443/articles?count=3";

    private static List<String> links(String json) throws Exception {
        return HalLinks.of(json.getBytes(StandardCharsets.UTF_8), new URL(BASE)).stream().map(URL::toString).toList();
    }

    @Test
    void shouldTakeEveryRelationButSelfWhenLinksAreObjectsOrArrays() throws Exception {
        String json = """
                {"_links":{"self":{"href":"/articles?count=3"},
                           "item":[{"href":"/articles/1"},{"href":"articles/2"}],
                           "next":{"href":"https://127.0.0.1:8443/articles?count=3&page=2"}},
                 "total":3}""";

        assertThat(links(json)).containsExactly("https://127.0.0.1:8443/articles/1", "https://127.0.0.1:8443/articles/2",
                "https://127.0.0.1:8443/articles?count=3&page=2");
    }

    @Test
    void shouldSkipTemplatedDuplicateAndHreflessLinksWhenTheyCannotBeFetchedOnce() throws Exception {
        String json = """
                {"_links":{"search":{"href":"/articles{?q}","templated":true},
                           "item":[{"href":"/articles/1"},{"href":"/articles/./1"},{"name":"no href"}]}}""";

        assertThat(links(json)).containsExactly("https://127.0.0.1:8443/articles/1");
    }

    @Test
    void shouldFindNoLinksWhenTheResponseIsNotHal() throws Exception {
        assertThat(links("{\"_links\":")).isEmpty();
        assertThat(links("<html></html>")).isEmpty();
        assertThat(links("[{\"href\":\"/articles/1\"}]")).isEmpty();
        assertThat(links("{\"_embedded\":{\"item\":[{\"_links\":{\"next\":{\"href\":\"/x\"}}}]}}")).isEmpty();
    }

    @Test
    void shouldReadJsonAndHalMediaTypesOnlyWhenAskedForAType() {
        assertThat(HalLinks.readsMediaType("application/json")).isTrue();
        assertThat(HalLinks.readsMediaType("application/hal+json")).isTrue();
        assertThat(HalLinks.readsMediaType("text/html")).isFalse();
        assertThat(HalLinks.readsMediaType(null)).isFalse();
    }
}
