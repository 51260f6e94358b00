package io.h2bench.client.exchange;

import java.util.Objects;
import java.util.Set;

/** One request or response header, in the order it was sent or received. */
public record HeaderField(String name, String value) {

    /**
     * Headers HTTP/2 forbids (RFC 9113 section 8.2.2), lower case: the client owns framing, so the
     * HTTP/2 engine never copies them from a plan's request, nor the h2c Upgrade, which writes its own.
     */
    public static final Set<String> CONNECTION_HEADERS =
            Set.of("connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "content-length");

    public HeaderField {
        Objects.requireNonNull(name, "name");
        value = value == null ? "" : value;
    }
}
