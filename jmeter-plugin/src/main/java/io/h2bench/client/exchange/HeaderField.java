package io.h2bench.client.exchange;

import java.util.Objects;

/** One request or response header, in the order it was sent or received. */
public record HeaderField(String name, String value) {

    public HeaderField {
        Objects.requireNonNull(name, "name");
        value = value == null ? "" : value;
    }
}
