package io.h2bench.sampler;

import java.io.IOException;

/** A forward proxy from Debian's packages that a test starts on 127.0.0.1 ({@link SquidProxy}, {@link ApacheForwardProxy}). */
interface ForwardProxy extends AutoCloseable {

    int port();

    /** What the proxy logged so far, one line per request or closed tunnel. */
    String accessLog() throws IOException;
}
