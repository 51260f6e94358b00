package io.h2bench.server.h3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.netty.handler.codec.quic.QuicStreamPriority;

/** RFC 9218 §4's Priority field, as Chromium sends it and as RFC 8941 says a dictionary may be written. */
class PriorityFieldTest {

    @ParameterizedTest(name = "''{0}'' is urgency {1}, incremental {2}")
    @CsvSource(delimiter = '|', value = {
        "u=0, i          | 0 | true",  // Chromium's document
        "u=1             | 1 | false", // its style sheets
        "u=4,i           | 4 | true",
        "i, u=6          | 6 | true",
        "i=?0, u=2       | 2 | false",
        "i=?1            | 3 | true",
        "''              | 3 | false",
        "u=9             | 3 | false", // out of range: ignored, the default stays (§4.1)
        "u=-1, i         | 3 | true",
        "u=1.5           | 3 | false", // a decimal is no integer
        "u=\"1\"         | 3 | false",
        "i=1, u=5        | 5 | false", // i is a boolean (§4.2), not 1
        "u=2, u=5        | 5 | false", // the last of a key wins
        "u=1;x=2;y, i    | 1 | true",  // parameters
        "x=(a \"b\" 1), u=0, y=:YWJj:, z=tok/en | 0 | false",
        "u=1,            | 3 | false", // trailing comma: no dictionary, all defaults
        "u=1 i           | 3 | false",
        "U=1             | 3 | false",
    })
    void shouldReadUrgencyAndIncrementalWhenTheFieldSaysThem(String value, int urgency, boolean incremental) {
        assertThat(PriorityField.parse(value)).isEqualTo(new QuicStreamPriority(urgency, incremental));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"u=1 | i | 1 | true", "u=1 | u=6 | 6 | false"})
    void shouldJoinLinesIntoOneDictionaryWhenTheFieldCameInTwo(String first, String second, int urgency, boolean incremental) {
        assertThat(PriorityField.parse(List.of(first, second))).isEqualTo(new QuicStreamPriority(urgency, incremental));
    }
}
