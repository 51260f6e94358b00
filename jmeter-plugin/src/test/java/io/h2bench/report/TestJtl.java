package io.h2bench.report;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The small hand-made JTL under src/test/resources/report, in JMeter 5.6.3's default CSV layout. */
final class TestJtl {

    static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

    private TestJtl() {
    }

    static Path small() {
        try {
            return Path.of(TestJtl.class.getResource("/report/small.jtl").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
