package io.h2bench.sampler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh {@link SamplerPair} (peer, HttpClient4 sampler, h2bench sampler) per test, closed after it. */
abstract class ParityTestBase {

    protected SamplerPair pair;

    @BeforeEach
    void startPair() throws Exception {
        pair = new SamplerPair();
    }

    @AfterEach
    void stopPair() {
        pair.close();
    }
}
